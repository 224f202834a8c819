package io.ibaccept.cli;

import io.ibaccept.collect.NativeProbe;
import io.ibaccept.dump.KeyValues;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

@Command(name = "probe", description = "Native host probe (JNA): memlock rlimit, libibumad CAs and port state, as key: value lines.")
final class ProbeCommand implements Callable<Integer> {
    @ParentCommand
    Main main;

    @Override
    public Integer call() {
        main.out.print(KeyValues.format(NativeProbe.probe()));
        return 0;
    }
}
