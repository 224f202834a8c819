package io.ibaccept.cli;

import java.util.concurrent.Callable;
import picocli.AutoComplete;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

@Command(exitCodeListHeading = "%nExit codes:%n", exitCodeList = {"0:printed"},
        name = "completion", description = {"Print the bash (and zsh) completion script for ibaccept.",
        "Use: source <(ibaccept completion), or save it to /etc/bash_completion.d/ibaccept."})
final class CompletionCommand implements Callable<Integer> {
    @ParentCommand
    Main main;

    @Override
    public Integer call() {
        main.out.print(AutoComplete.bash("ibaccept", main.spec.commandLine()));
        return 0;
    }
}
