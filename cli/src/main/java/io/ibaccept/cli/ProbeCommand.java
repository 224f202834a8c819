package io.ibaccept.cli;

import io.ibaccept.collect.NativeProbe;
import io.ibaccept.dump.KeyValues;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

@Command(exitCodeListHeading = "%nExit codes:%n", exitCodeList = {"0:printed (what could not be read is a line saying so)", "2:bad usage (the message says what)", "3:internal error (a bug: report it with the dump)"},
        name = "probe", description = "Native host probe (JNA): memlock rlimit, libibumad CAs and port state, as key: value lines.")
final class ProbeCommand implements Callable<Integer> {
    @ParentCommand
    Main main;

    @Override
    public Integer call() {
        main.out.print(KeyValues.format(NativeProbe.probe()));
        return 0;
    }
}
