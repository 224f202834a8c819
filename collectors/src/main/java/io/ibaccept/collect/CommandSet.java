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
    /**
     * mlxconfig per IB device, by the PCI address of its function (mlxconfig -d takes it without 'mst start'); virtual
     * functions (device/physfn) are skipped: their configuration is the physical function's and mlxconfig refuses them.
     */
    static final String MLXCONFIG_EACH = "command -v mlxconfig >/dev/null || exit 127; ok=1; n=0; "
            + "for d in /sys/class/infiniband/*; do [ -e \"$d/device\" ] || continue; [ -e \"$d/device/physfn\" ] && continue; n=$((n+1)); "
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
            // --congestion_control (ibdiagnet 2.8+) adds the CC_* sections to db_csv; older versions reject unknown options,
            // and a run that the option breaks (no log written) is done again without it, so the rest of the data is kept
            s.add(new Spec(Cmd.IBDIAGNET_LOG, "run() { rm -rf " + IBDIAG_DIR + " && ibdiagnet -o " + IBDIAG_DIR + " \"$@\" >/dev/null; }; "
                    + "cc=; { ibdiagnet --help; ibdiagnet --deep_help; } 2>/dev/null | grep -q -e --congestion_control && cc=--congestion_control; "
                    + "run $cc; [ $? -eq 127 ] && exit 127; if [ -n \"$cc\" ] && [ ! -s " + IBDIAG_DIR + "/ibdiagnet2.log ]; then run; fi; "
                    + "cat " + IBDIAG_DIR + "/ibdiagnet2.log", Duration.ofSeconds(900)));
            s.add(new Spec(Cmd.IBDIAGNET_DB, "cat " + IBDIAG_DIR + "/ibdiagnet2.db_csv", Duration.ofSeconds(60)));
        }
        return s;
    }

    // SM configuration (#10): the files of the subnet manager node, read where an opensm process runs
    /** Exit code of an SM snippet meaning "nothing of this kind here" (no opensm running, no such file): not recorded. */
    static final int NOT_HERE = 3;

    static final java.util.Set<Cmd> SM_CONFIG = java.util.EnumSet.of(Cmd.OPENSM_PROCESS, Cmd.OPENSM_CONF, Cmd.PARTITIONS_CONF, Cmd.OPENSM_LOG);

    /**
     * opensm.conf as it is, except the keys (sm_key, sa_key, m_key, cc_key): a dump travels with tickets, so a key other
     * than opensm's defaults (0x0, 0x1) is replaced by a short SHA-256 of it (SM nodes can still be compared). Only a
     * value of hex digits reaches the hashing shell; anything else is replaced without a hash.
     */
    static final String REDACT_KEYS = "awk '{ if (($1==\"sm_key\"||$1==\"sa_key\"||$1==\"m_key\"||$1==\"cc_key\") && NF>=2) { v=tolower($2); "
            + "if (v ~ /^0x0*[01]$/) { print; next } "
            + "if (v ~ /^0x[0-9a-f]+$/) { c=\"printf %s \" v \" | sha256sum\"; h=\"\"; c | getline h; close(c); "
            + "print $1 \" <redacted sha256:\" substr(h,1,12) \">\"; next } "
            + "print $1 \" <redacted>\"; next } print }' \"$F\"";

    /** Lines of opensm.log collected (its end). */
    static final int LOG_TAIL_LINES = 5000;

    /**
     * Finds the running opensm (on the simulator, every simulated host is this machine: only the opensm started with
     * this host's SIM_HOST and IBSIM_SOCKNAME counts) and the files it uses: -F/--config, else /etc/opensm/opensm.conf or
     * /etc/rdma/opensm.conf; -P/--Pconfig, else partition_config_file, else /etc/opensm/partitions.conf; -f/--log_file,
     * else log_file, else /var/log/opensm.log. Paths relative to opensm's working directory are read there. Nothing
     * from outside ibaccept goes into the text: the paths come from the node and stay in quoted shell variables.
     */
    static final String SM_FIND = "SMPID=; for p in $(pgrep -x opensm 2>/dev/null); do "
            + "if [ -n \"${SIM_HOST:-}\" ]; then e=$(tr '\\0' '\\n' < /proc/$p/environ 2>/dev/null) || continue; "
            + "printf '%s\\n' \"$e\" | grep -qxF \"SIM_HOST=$SIM_HOST\" || continue; "
            + "if [ -n \"${IBSIM_SOCKNAME:-}\" ]; then printf '%s\\n' \"$e\" | grep -qxF \"IBSIM_SOCKNAME=$IBSIM_SOCKNAME\" || continue; fi; fi; "
            + "SMPID=$p; break; done; "
            + "ARGS=; [ -n \"$SMPID\" ] && ARGS=$(tr '\\0' '\\n' < /proc/$SMPID/cmdline 2>/dev/null); "
            + "abs() { case \"$1\" in /*|'') printf '%s' \"$1\";; *) if [ -n \"$SMPID\" ]; then printf '%s' \"/proc/$SMPID/cwd/$1\"; else printf '%s' \"$1\"; fi;; esac; }; "
            + "optv() { printf '%s\\n' \"$ARGS\" | awk -v s=\"$1\" -v l=\"$2\" 'NR>1{ if(f){v=$0;f=0;next} if($0==s||$0==l){f=1;next} "
            + "if(index($0,l\"=\")==1){v=substr($0,length(l)+2);next} if(index($0,s)==1&&length($0)>2&&substr($0,1,2)!=\"--\"){v=substr($0,3)} } END{print v}'; }; "
            + "CONF=$(optv -F --config); if [ -n \"$CONF\" ]; then CONF=$(abs \"$CONF\"); else "
            + "for f in /etc/opensm/opensm.conf /etc/rdma/opensm.conf; do if [ -f \"$f\" ]; then CONF=$f; break; fi; done; fi; "
            + "confv() { [ -r \"$CONF\" ] && awk -v k=\"$1\" '$1==k{$1=\"\";sub(/^[ \\t]+/,\"\");v=$0} END{print v}' \"$CONF\"; }; "
            + "PART=$(optv -P --Pconfig); [ -n \"$PART\" ] || PART=$(confv partition_config_file); "
            + "if [ -z \"$PART\" ] || [ \"$PART\" = '(null)' ]; then PART=/etc/opensm/partitions.conf; fi; PART=$(abs \"$PART\"); "
            + "LOGF=$(optv -f --log_file); [ -n \"$LOGF\" ] || LOGF=$(confv log_file); "
            + "if [ -z \"$LOGF\" ] || [ \"$LOGF\" = '(null)' ]; then LOGF=/var/log/opensm.log; fi; LOGF=$(abs \"$LOGF\"); ";

    /**
     * The SM node's files. auto: run on every collected node, and a node without a running opensm records nothing
     * (exit {@link #NOT_HERE}); otherwise the node was named with --sm-nodes and a missing opensm is reported.
     */
    public static List<Spec> smConfig(boolean auto) {
        String running = auto
                ? "[ -n \"$SMPID\" ] || { echo 'no opensm process on this host' >&2; exit " + NOT_HERE + "; }; "
                : "[ -n \"$SMPID\" ] || command -v opensm >/dev/null || [ -n \"$CONF\" ] || exit 127; ";
        String file = "[ -e \"$F\" ] || { echo \"$F: not present\" >&2; exit " + NOT_HERE + "; }; ";
        return List.of(
                new Spec(Cmd.OPENSM_PROCESS, SM_FIND + running
                        + "echo \"pid: $SMPID\"; echo \"config: $CONF\"; echo \"partitions: $PART\"; echo \"log: $LOGF\"; "
                        + "printf '%s\\n' \"$ARGS\" | while IFS= read -r a; do [ -n \"$a\" ] && printf 'arg: %s\\n' \"$a\"; done; exit 0",
                        Duration.ofSeconds(20)),
                new Spec(Cmd.OPENSM_CONF, SM_FIND + running + "F=$CONF; " + file + REDACT_KEYS, Duration.ofSeconds(20)),
                new Spec(Cmd.PARTITIONS_CONF, SM_FIND + running + "F=$PART; " + file + "cat -- \"$F\"", Duration.ofSeconds(20)),
                new Spec(Cmd.OPENSM_LOG, SM_FIND + running + "F=$LOGF; " + file + "tail -n " + LOG_TAIL_LINES + " -- \"$F\"",
                        Duration.ofSeconds(30)));
    }

    /** An SM snippet that found nothing of its kind on the node (not an SM node, no partitions file): not recorded. */
    static boolean notHere(Spec s, ExecResult r) {
        return SM_CONFIG.contains(s.cmd()) && r.exitCode() == NOT_HERE && io.ibaccept.dump.CommandResult.FAILED.equals(r.status());
    }
}
