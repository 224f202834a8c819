package io.ibaccept.cli;

import io.ibaccept.rules.RulesReference;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

@Command(exitCodeListHeading = "%nExit codes:%n", exitCodeList = {"0:printed", "3:internal error (a bug: report it)"},
        name = "rules", description = {"Print every rule setting: per check, each threshold and option with its description, type and default.",
        "The output is a rules file at the defaults: copy the lines to change into your own file for analyze --rules FILE."})
final class RulesCommand implements Callable<Integer> {
    @ParentCommand
    Main main;

    @Override
    public Integer call() {
        main.out.print(RulesReference.render());
        return 0;
    }
}
