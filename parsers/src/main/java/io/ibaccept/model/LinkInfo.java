package io.ibaccept.model;

import io.ibaccept.parse.SourceRef;

/**
 * One port line of {@code iblinkinfo}. width/speed are null for ports that are down; remoteLid/remotePort are -1 when
 * nothing is connected. couldBe is iblinkinfo's own "Could be ..." hint, empty if none.
 */
public record LinkInfo(boolean switchNode, long nodeGuid, String nodeName, int lid, int port, LinkWidth width,
                       LinkSpeed speed, String state, String physState, int remoteLid, int remotePort,
                       String remoteName, String couldBe, SourceRef ref) {
    public boolean isActive() {
        return "Active".equalsIgnoreCase(state);
    }

    public boolean isConnected() {
        return remotePort >= 0;
    }
}
