package io.ibaccept.model;

import io.ibaccept.parse.SourceRef;

/** One line of {@code sminfo}: "sminfo: sm lid 1 sm guid 0x100001, activity count 698 priority 14 state 3 SMINFO_MASTER". */
public record SmInfo(int lid, long guid, long activityCount, int priority, int state, String stateName, SourceRef ref) {
    public boolean isMaster() {
        return state == 3 || "SMINFO_MASTER".equals(stateName);
    }
}
