package io.ibaccept.collect;

import io.ibaccept.dump.Cmd;
import io.ibaccept.safety.Shell;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The shell snippets the collector runs for each {@link Cmd}. Fabric-wide ones run once, on the fabric node. The
 * snippets are fixed text; the only values from outside (interface name, probe command) are validated and quoted.
 */
public final class CommandSet {
    private CommandSet() {}

    /** okExits: exit codes that still mean "ran and printed its result" (ibqueryerrors exits 1 when it found errors). */
    public record Spec(Cmd cmd, String script, Duration timeout, java.util.Set<Integer> okExits) {
        public Spec(Cmd cmd, String script, Duration timeout) {
            this(cmd, script, timeout, java.util.Set.of(0));
        }
    }

    /** First IB device name, for tools that need -d. */
    static final String DEV = "$(ibstat -l 2>/dev/null | head -1)";
    static final String IBDIAG_DIR = "/tmp/ibaccept-ibdiagnet2";

    public static List<Spec> perNode(boolean withMlxlink, String ethtoolIface) {
        return perNode(withMlxlink, ethtoolIface, null);
    }

    /** probeCommand: how to run ibaccept's native probe on a node (e.g. "ibaccept probe"); null to skip it. */
    public static List<Spec> perNode(boolean withMlxlink, String ethtoolIface, String probeCommand) {
        List<Spec> s = new ArrayList<>(List.of(
                new Spec(Cmd.IBSTAT, "ibstat", Duration.ofSeconds(30)),
                new Spec(Cmd.PORTINFO, "smpquery -D portinfo 0", Duration.ofSeconds(30)),
                new Spec(Cmd.PKEYS, "smpquery -D pkeys 0", Duration.ofSeconds(30)),
                // P_Key table of the switch port this HCA is cabled to: LocalPort of a switch's PortInfo is the
                // port the SMP entered through, i.e. the one facing us.
                new Spec(Cmd.PEER_PKEYS, "p=$(smpquery -D portinfo 0,1 0 | sed -n 's/^LocalPort:\\.*//p') && [ -n \"$p\" ] "
                        + "&& smpquery -D pkeys 0,1 \"$p\"", Duration.ofSeconds(30)),
                // PortInfo of that same switch port: its PartEnforceInb/Outb say whether partitions are enforced there
                new Spec(Cmd.PEER_PORTINFO, "p=$(smpquery -D portinfo 0,1 0 | sed -n 's/^LocalPort:\\.*//p') && [ -n \"$p\" ] "
                        + "&& smpquery -D portinfo 0,1 \"$p\"", Duration.ofSeconds(30)),
                new Spec(Cmd.NODEINFO, "smpquery -D nodeinfo 0", Duration.ofSeconds(30)),
                new Spec(Cmd.ULIMIT, "ulimit -l", Duration.ofSeconds(10)),
                new Spec(Cmd.OFED_INFO, "ofed_info -s", Duration.ofSeconds(30))));
        s.addAll(hostConfig());
        if (withMlxlink) {
            s.add(new Spec(Cmd.MLXLINK, "mlxlink -d " + DEV + " -m -c -e", Duration.ofSeconds(120)));
            s.add(new Spec(Cmd.MLXLINK_PCIE, "mlxlink -d " + DEV + " --port_type PCIE", Duration.ofSeconds(60)));
        }
        if (ethtoolIface != null)
            s.add(new Spec(Cmd.ETHTOOL, Shell.join("ethtool", "-S", Shell.requireInterface(ethtoolIface)), Duration.ofSeconds(30)));
        // the operator's own command (e.g. "/opt/ibaccept/bin/ibaccept probe"): words, never shell syntax
        if (probeCommand != null) s.add(new Spec(Cmd.NATIVE_PROBE, Shell.words(probeCommand), Duration.ofSeconds(60)));
        // MPI/UCX/GPU readiness (#10): always gathered; a tool that is not installed (no GPU, no UCX) is recorded as missing
        s.addAll(runtime());
        return s;
    }

    /**
     * The memlock limit a Slurm job step gets: under the srun transport this already runs inside a step; over ssh a
     * one-task step is started on this same node (--immediate: never wait in the queue; the Slurm node name is the
     * short host name). No srun on the node, or no step could be started on it (not a Slurm node, node busy or
     * drained, no account): the fact is not available, recorded like a missing tool with srun's reason in stderr, so an
     * optional fact never makes the verdict INCOMPLETE.
     */
    static final String STEP_MEMLOCK = "if [ -n \"${SLURM_STEP_ID:-}\" ]; then ulimit -l; else command -v srun >/dev/null || exit 127; "
            + "srun --quiet --immediate=30 -N1 -n1 -w \"$(hostname -s)\" sh -c 'ulimit -l' "
            + "|| { echo \"no Slurm job step could be started on this node (srun exit $?)\" >&2; exit 127; }; fi";

    /** MPI/UCX/GPU readiness (#10): per-node runtime facts. */
    public static List<Spec> runtime() {
        return List.of(
                new Spec(Cmd.ULIMIT_STEP, STEP_MEMLOCK, Duration.ofSeconds(60)),
                new Spec(Cmd.UCX_VERSION, "ucx_info -v", Duration.ofSeconds(30)),
                new Spec(Cmd.UCX_DEVICES, "ucx_info -d", Duration.ofSeconds(60)),
                new Spec(Cmd.OMPI_INFO, "ompi_info", Duration.ofSeconds(60)),
                // sysfs of every RDMA device; grep -H names the device in each line
                new Spec(Cmd.HCA_NUMA, "set -- /sys/class/infiniband/*/device/numa_node; [ -e \"$1\" ] || "
                        + "{ echo 'no RDMA device under /sys/class/infiniband' >&2; exit 127; }; grep -H . \"$@\"", Duration.ofSeconds(10)),
                new Spec(Cmd.NVIDIA_TOPO, "nvidia-smi topo -m", Duration.ofSeconds(60)),
                new Spec(Cmd.LSMOD, "lsmod", Duration.ofSeconds(10)));
    }

    // IPoIB, time, CC/AR (#10): host configuration, every node, each optional (exit 127 = missing-tool)
    /** mlxconfig per IB device, by the PCI address of its function (mlxconfig -d takes it without 'mst start'). */
    static final String MLXCONFIG_EACH = "command -v mlxconfig >/dev/null || exit 127; ok=1; n=0; "
            + "for d in /sys/class/infiniband/*; do [ -e \"$d/device\" ] || continue; n=$((n+1)); "
            + "mlxconfig -d \"$(basename \"$(readlink -f \"$d/device\")\")\" q && ok=0; done; "
            + "[ $n -eq 0 ] && echo 'no InfiniBand device in /sys/class/infiniband' >&2; exit $ok";

    /** chronyc tracking; where chrony is not installed but ptp4l runs, linuxptp's TIME_STATUS_NP (an idle pmc answers nothing). */
    static final String TIME_SYNC = "if command -v chronyc >/dev/null; then chronyc tracking; "
            + "elif command -v pmc >/dev/null && pgrep -x ptp4l >/dev/null; then pmc -u -b 0 'GET TIME_STATUS_NP'; "
            + "else echo 'chronyc: command not found (and no ptp4l running)' >&2; exit 127; fi";

    /**
     * Commands that read the host's own OS state (limits, libraries, modules, network interfaces, clock): on the ibsim
     * transport every simulated host is this machine, so their output would describe it, not the simulated node.
     */
    public static List<Spec> hostLocal() {
        List<Spec> s = new ArrayList<>(runtime());
        s.addAll(hostConfig());
        return s;
    }

    static List<Spec> hostConfig() {
        return List.of(
                // all interfaces with details: IPoIB ones are link/infiniband (names vary: ib0, ibp65s0, mlx5_ib0)
                new Spec(Cmd.IP_ADDR, "ip -d addr show", Duration.ofSeconds(30)),
                new Spec(Cmd.CHRONY, TIME_SYNC, Duration.ofSeconds(30)),
                new Spec(Cmd.MLXCONFIG, MLXCONFIG_EACH, Duration.ofSeconds(120)));
    }

    public static List<Spec> fabric(boolean withIbdiagnet) {
        List<Spec> s = new ArrayList<>(List.of(
                new Spec(Cmd.IBNETDISCOVER, "ibnetdiscover", Duration.ofSeconds(300)),
                new Spec(Cmd.IBLINKINFO, "iblinkinfo", Duration.ofSeconds(300)),
                new Spec(Cmd.IBQUERYERRORS, "ibqueryerrors", Duration.ofSeconds(300), java.util.Set.of(0, 1)),
                new Spec(Cmd.PERFQUERY, "perfquery", Duration.ofSeconds(30)),
                new Spec(Cmd.SAQUERY_SM, "saquery -s", Duration.ofSeconds(60)),
                // multicast groups: the IPoIB broadcast group of each partition and its MTU
                new Spec(Cmd.SAQUERY_MCG, "saquery -g", Duration.ofSeconds(60)),
                // plain sminfo (the SM the local port points to: a rogue master the SA does not list shows up here),
                // then every SM port the SA lists; usable when any of them answered (a dead SM is judged by the rules)
                new Spec(Cmd.SMINFO, "command -v sminfo >/dev/null || exit 127; "
                        + "lids=$(saquery -s 2>/dev/null | sed -n 's/^[[:space:]]*EndPortLid\\.*//p'); "
                        + "ok=1; sminfo && ok=0; for l in $lids; do sminfo $l && ok=0; done; exit $ok",
                        Duration.ofSeconds(60))));
        if (withIbdiagnet) {
            s.add(new Spec(Cmd.IBDIAGNET_LOG, "rm -rf " + IBDIAG_DIR + " && ibdiagnet -o " + IBDIAG_DIR + " >/dev/null; "
                    + "rc=$?; [ $rc -eq 127 ] && exit 127; cat " + IBDIAG_DIR + "/ibdiagnet2.log", Duration.ofSeconds(900)));
            s.add(new Spec(Cmd.IBDIAGNET_DB, "cat " + IBDIAG_DIR + "/ibdiagnet2.db_csv", Duration.ofSeconds(60)));
        }
        return s;
    }
}
