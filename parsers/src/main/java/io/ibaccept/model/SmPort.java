package io.ibaccept.model;

import io.ibaccept.parse.SourceRef;

/** A port listed by {@code saquery -s} (PortInfoRecords with the IsSM capability bit). */
public record SmPort(int endPortLid, int portNum, long capabilityMask, boolean smDisabled, SourceRef ref) {}
