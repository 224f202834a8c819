package io.ibaccept.rules;

/** A waiver as applied to one report: expired (no longer applied) and how many findings it turned into WAIVED. */
public record WaiverUse(Waiver waiver, boolean expired, int findings) {}
