package io.ibaccept.model;

import io.ibaccept.parse.SourceRef;

/** {@code smpquery nodeinfo}. */
public record NodeInfo(String nodeType, int numPorts, long systemGuid, long guid, long portGuid, int partitionCap,
                       String deviceId, String revision, String vendorId, SourceRef ref) {}
