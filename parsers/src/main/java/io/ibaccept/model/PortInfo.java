package io.ibaccept.model;

import io.ibaccept.parse.SourceRef;

/**
 * The fields of {@code smpquery portinfo} that acceptance checks use. speed is the effective active speed (the
 * extended speed when one is active). Numbers absent from the output are -1; strings are empty.
 */
public record PortInfo(int lid, int smLid, int localPort, String linkWidthEnabled, String linkWidthSupported,
                       LinkWidth linkWidthActive, LinkSpeed speed, String linkState, String physLinkState,
                       int neighborMtu, int mtuCap, boolean partitionEnforceInbound, SourceRef ref) {}
