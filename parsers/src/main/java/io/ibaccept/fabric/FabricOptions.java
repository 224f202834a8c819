package io.ibaccept.fabric;

/**
 * What the user gives besides the dump for the fabric checks: the node-name-map ({@code --node-name-map FILE}) and the
 * customer's cabling plan ({@code analyze --expect PLAN}); either may be null.
 */
public record FabricOptions(NodeNameMap names, CablingPlan plan) {
    public static final FabricOptions NONE = new FabricOptions(null, null);
}
