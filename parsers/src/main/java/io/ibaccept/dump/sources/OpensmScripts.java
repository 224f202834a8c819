package io.ibaccept.dump.sources;

import java.time.Duration;
import java.util.Set;

/** What the four SM-node sources share: finding the running opensm and the files it uses. */
public final class OpensmScripts {
    private OpensmScripts() {}

    /** Exit code of an SM snippet meaning "nothing of this kind here" (no opensm running, no such file): not recorded. */
    static final int NOT_HERE = 3;

    /**
     * Finds the running opensm (on the simulator, every simulated host is this machine: only the opensm started with
     * this host's SIM_HOST and IBSIM_SOCKNAME counts) and the files it uses: -F/--config, else /etc/opensm/opensm.conf or
     * /etc/rdma/opensm.conf; -P/--Pconfig, else partition_config_file, else /etc/opensm/partitions.conf; -f/--log_file,
     * else log_file, else /var/log/opensm.log. Paths relative to opensm's working directory are read there. Nothing
     * from outside ibaccept goes into the text: the paths come from the node and stay in quoted shell variables.
     */
    public static final String FIND = "SMPID=; for p in $(pgrep -x opensm 2>/dev/null); do "
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

    /** The script's file $F must exist, else there is nothing of this kind on the node. */
    static final String FILE_PRESENT = "[ -e \"$F\" ] || { echo \"$F: not present\" >&2; exit " + NOT_HERE + "; }; ";

    /**
     * FIND, then what to do where no opensm runs, then the source's own part. Without --sm-nodes every collected node
     * is asked and one without a running opensm records nothing; a node named with --sm-nodes reports a missing opensm.
     */
    static Source.Collect collect(CollectOptions o, String own, Duration timeout) {
        String running = !o.smNodesNamed()
                ? "[ -n \"$SMPID\" ] || { echo 'no opensm process on this host' >&2; exit " + NOT_HERE + "; }; "
                : "[ -n \"$SMPID\" ] || command -v opensm >/dev/null || [ -n \"$CONF\" ] || exit 127; ";
        return new Source.Collect(FIND + running + own, timeout, Set.of(0), Set.of(NOT_HERE));
    }
}
