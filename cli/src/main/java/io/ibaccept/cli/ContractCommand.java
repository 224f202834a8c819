package io.ibaccept.cli;

import io.ibaccept.analysis.Analysis;
import io.ibaccept.analysis.ContractDraft;
import io.ibaccept.contract.ContractFile;
import io.ibaccept.fabric.CablingPlan;
import io.ibaccept.rules.RuleConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

@Command(exitCodeListHeading = "%nExit codes:%n", exitCodeList = {"0:done", "2:bad usage, an unusable dump or an invalid contract", "3:internal error (a bug: report it with the dump)"},
        name = "contract", description = "The acceptance contract: what the cluster must be (hosts and node classes, links, design, SMs, partitions, "
        + "versions, targets, required checks). 'analyze --contract FILE' judges a dump against it.",
        subcommands = {ContractCommand.Init.class, ContractCommand.Check.class})
final class ContractCommand {
    @ParentCommand
    Main main;

    @Command(name = "init", description = {"Write a draft contract from a dump known to be good: what the dump shows, written as what the cluster must be,",
            "for you to check against the design and the bill of materials. Values not uniform in the dump are noted in comments.",
            "Exit code: 0 written, 2 bad usage or unusable dump."})
    static final class Init implements Callable<Integer> {
        @ParentCommand
        ContractCommand parent;

        @Parameters(index = "0", paramLabel = "DUMP", description = "dump directory, or the dump as a .zip file")
        Path dump;

        @Option(names = "--expect", paramLabel = "PLAN", description = "the cabling plan (as for analyze): the draft then takes the switches from it")
        Path expect;

        @Option(names = {"-o", "--output"}, required = true, paramLabel = "FILE", description = "the contract file to write (not overwritten if it exists)")
        Path out;

        @Override
        public Integer call() {
            if (Files.exists(out)) throw new Main.UsageError(out + ": exists; the draft does not overwrite a contract (remove it or choose another name)");
            CablingPlan plan = expect == null ? null : AnalyzeCommand.loadPlan(expect);
            Analysis a = Analysis.of(dump, Analysis.Options.of(RuleConfig.defaults()).withPlan(plan));
            String yaml = ContractDraft.of(a);
            if (plan != null) yaml = yaml.replaceFirst("(?m)^  switches: \\d+$", "  switches: plan");
            try { // it must read back
                Analysis.rulesFor(RuleConfig.defaults(), ContractFile.parse(out.toString(), yaml.getBytes(StandardCharsets.UTF_8)));
            } catch (ContractFile.BadContract e) {
                throw new Main.UsageError("the draft would not read back, so it was not written: " + e.getMessage());
            }
            try {
                Files.createDirectories(out.toAbsolutePath().getParent());
                Files.writeString(out, yaml, StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.CREATE_NEW);
            } catch (IOException e) {
                throw new Main.UsageError(out + ": cannot write the contract (" + io.ibaccept.safety.IoMessages.why(e) + ")");
            }
            parent.main.out.println("wrote " + out + " (" + a.data().hosts().size() + " hosts): edit it against the design before analyze --contract");
            String warning = ContractDraft.warning(a);
            if (warning != null) parent.main.out.println("WARNING: " + warning);
            return Main.ACCEPTED;
        }
    }

    @Command(name = "check", description = {"Read a contract and print what it declares, or the first error with file:line.", "Exit code: 0 valid, 2 invalid."})
    static final class Check implements Callable<Integer> {
        @ParentCommand
        ContractCommand parent;

        @Parameters(index = "0", paramLabel = "FILE", description = "the contract (YAML)")
        Path file;

        @Override
        public Integer call() {
            var k = AnalyzeCommand.loadContract(file);
            parent.main.out.println(file + ": " + k.id());
            k.summaryLines().forEach(l -> parent.main.out.println("  " + l));
            parent.main.out.println("  required checks: " + String.join(", ", Analysis.requiredChecks(k)));
            return Main.ACCEPTED;
        }
    }
}
