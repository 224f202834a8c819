package io.ibaccept.cli;

import io.ibaccept.collect.Transport;
import io.ibaccept.collect.Transports;
import java.util.ArrayList;
import java.util.List;
import java.util.Stack;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.IParameterConsumer;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/** How commands reach the nodes. */
final class TransportOptions {
    /** The constants are the words on the command line. */
    enum Kind { local, ssh, srun, sim }

    @Option(names = "--transport", paramLabel = "KIND",
            description = "local, ssh, srun or sim (ibsim); default: srun with --slurm, else ssh. Valid values: ${COMPLETION-CANDIDATES}")
    Kind kind;

    @Option(names = "--ssh-opt", paramLabel = "OPT", parameterConsumer = Verbatim.class,
            description = "extra ssh option, repeatable, e.g. --ssh-opt -oProxyJump=bastion")
    List<String> sshOpts = new ArrayList<>();

    @Option(names = "--sim-host-pattern", paramLabel = "PATTERN", defaultValue = "H-{host}",
            description = "sim transport: ibsim node name of a host (default: ${DEFAULT-VALUE})")
    String simHostPattern;

    @Option(names = "--umad2sim", paramLabel = "LIB", description = "sim transport: path of libumad2sim.so (default: the Debian one)")
    String umad2sim;

    Transport transport(boolean slurm) {
        Kind k = kind != null ? kind : slurm ? Kind.srun : Kind.ssh;
        return switch (k) {
            case local -> new Transports.Local();
            case ssh -> new Transports.Ssh(sshOpts);
            case srun -> new Transports.Srun(List.of());
            case sim -> new Transports.Sim(simHostPattern, umad2sim);
        };
    }

    /**
     * Takes the next argument as the value even when it looks like an option: ssh options start with '-', and
     * '-oProxyJump=x' would otherwise be read as our own -o.
     */
    static final class Verbatim implements IParameterConsumer {
        @Override
        public void consumeParameters(Stack<String> args, ArgSpec argSpec, CommandSpec commandSpec) {
            if (args.isEmpty()) throw new ParameterException(commandSpec.commandLine(), "Missing required parameter for option '"
                    + ((picocli.CommandLine.Model.OptionSpec) argSpec).longestName() + "' (" + argSpec.paramLabel() + ")");
            String v = args.pop();
            if (!List.class.isAssignableFrom(argSpec.type())) {
                argSpec.setValue(v);
                return;
            }
            List<String> l = argSpec.getValue();
            if (l == null) {
                l = new ArrayList<>();
                argSpec.setValue(l);
            }
            l.add(v);
        }
    }
}
