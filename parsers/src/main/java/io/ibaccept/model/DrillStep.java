package io.ibaccept.model;

import io.ibaccept.parse.SourceRef;

/** One step of a drill's record: its kind ("stop", "takeover", "disable", "back", ...), its time as written and its text. */
public record DrillStep(String kind, String at, String text, SourceRef ref) {}
