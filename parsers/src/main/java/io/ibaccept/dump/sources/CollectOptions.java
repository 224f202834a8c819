package io.ibaccept.dump.sources;

/**
 * The collect options a source's script may depend on.
 *
 * @param mlxlink      --mlxlink: mlxlink per node
 * @param ibdiagnet    --ibdiagnet: ibdiagnet on the fabric node
 * @param ethtoolIface --ethtool IFACE: 'ethtool -S IFACE' per node, null without it
 * @param probeCommand --probe-cmd CMD: the command that runs ibaccept's native probe on a node, null without it
 * @param smNodesNamed --sm-nodes was given: a named SM node without opensm is reported; otherwise every collected node
 *                     is asked and one where no opensm runs records nothing
 * @param simulated    the ibsim transport: every simulated host is this machine
 */
public record CollectOptions(boolean mlxlink, boolean ibdiagnet, String ethtoolIface, String probeCommand,
                             boolean smNodesNamed, boolean simulated) {
    /** No optional tool, SM nodes found where opensm runs, real hosts. */
    public static final CollectOptions DEFAULTS = new CollectOptions(false, false, null, null, false, false);
}
