package io.ibaccept.rules;

import java.util.List;
import java.util.Set;

/**
 * One check of the field troubleshooting table: its id (the key prefix of its texts and settings), the dump inputs it
 * reads, its typed settings, and its evaluation. The engine SKIPs the check with the collect hint when a
 * declared input is unusable, so {@link #evaluate} only runs when there is something to judge. Register a new check
 * in {@code io.ibaccept.rules.checks.Checks}.
 */
public interface Check {
    String id();

    /** Inputs the check needs; each one may list alternatives (any usable one satisfies it). */
    List<Input> inputs();

    /**
     * Thresholds and options of the check, each with its type, default and description: the only place the default is
     * declared; a user's rules file overrides it as {@code <id>.<key>}.
     */
    default List<Setting> settings() {
        return List.of();
    }

    void evaluate(Ctx ctx);

    // How the check's findings take part in the root-cause pass (PhysicalCauses): one fault, one root, the rest under it.

    /** What a root finding can explain about the things it references, strongest first. */
    enum RootRole {
        /** a port that is down: everything fabric-facing about that port, its cable and, if it was the host's only way in, its host */
        PORT_DOWN,
        /** a physical-layer fault of a cable: every other finding about that cable, and what its HCA end's host loses */
        CABLE,
        /** a fault of the host's own hardware (its HCA's PCIe link): the RDMA pairs of the host */
        HOST_HARDWARE,
        /** which node a name means: tool messages about that node */
        NODE_IDENTITY,
        /** any other fault: tool messages about the same port or cable */
        OTHER
    }

    /** By which roots a finding may be explained. */
    enum ExplainedBy {
        /** a port down on one of its things, or its host cut off from the fabric */
        PORT_DOWN,
        /** a cable fault on the same cable or port */
        CABLE,
        /** a cable fault at the HCA end of the host (or of a host of the pair) it concerns */
        CABLE_AT_HCA,
        /** a hardware fault of the host (or of a host of the pair) */
        HOST_HARDWARE,
        /** any root about the same port, cable or named node: a tool's message repeating what a check found */
        SAME_OBJECT
    }

    /** How the check names what its findings concern: the default (hosts, "node port N", switch names) or otherwise. */
    enum Naming {
        /** objects are host names, "NODE port N" or switch names */
        OBJECTS,
        /** an object that is a host means the host's cables (the check judges the host's link) */
        HOST_CABLES,
        /** two hosts tested against each other, named in the evidence as "A -> B", else the finding's two objects */
        PAIRS,
        /** the pairs named in the evidence; a finding with one object is about that host alone */
        PAIRS_IN_EVIDENCE,
        /** the ports and nodes a vendor tool's message names in its text */
        TOOL_MESSAGES,
        /** as OBJECTS, and a host it names is a subnet manager's node */
        SM_NODES
    }

    /** The root role of one of this check's FAIL/WARN findings, or null when it explains nothing. */
    default RootRole rootRole(Finding f) {
        return RootRole.OTHER;
    }

    /**
     * Its PASS line states a fact the reader must hold against what was bought, not only that nothing differs: a version
     * or a link rate every host shares ("all 200 host(s) run firmware 28.39.1002") may be uniform and still wrong.
     * Page 1 lists these facts.
     */
    default boolean statesFacts() {
        return false;
    }

    /** Among roots of one role, lower is stronger evidence (error counters before a width below the expected one). */
    default int rootStrength() {
        return 10;
    }

    /** The roots that may list this finding as their consequence: by default a port down or a cable fault on its things. */
    default Set<ExplainedBy> explainedBy(Finding f) {
        return Set.of(ExplainedBy.PORT_DOWN, ExplainedBy.CABLE);
    }

    default Naming naming() {
        return Naming.OBJECTS;
    }

    /** A finding that only announces the check's next finding (a tool's stage note): it goes under that one's root. */
    default boolean announcesNext(Finding f) {
        return false;
    }

    /**
     * Findings of the check about whole nodes that say the same thing in other words (the same vendor warning about
     * every switch) share a key: the first is the root, the others are listed under it. null: no such grouping.
     */
    default String sameKind(Finding f) {
        return null;
    }
}
