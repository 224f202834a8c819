package io.ibaccept.rules;

/**
 * A typed reference from a finding to what it concerns in the fabric: reports group and link by these, and the
 * root-cause pass matches roots to consequences by them, instead of parsing the finding's text. key() is one string per
 * referenced thing, equal for equal things.
 */
public sealed interface Ref {
    String key();

    /** A host of the dump (a compute or service node). */
    record Host(String name) implements Ref {
        public String key() {
            return "host:" + name;
        }
    }

    /** A port of a node: node is the host name for a host's HCA port, the switch name (or description) otherwise. */
    record Port(String node, int port) implements Ref {
        public String key() {
            return "port:" + node + ":" + port;
        }
    }

    /** A cable, named by both its ends ("node03 HCA-1 port 1 <-> leaf01 port 3"). */
    record Cable(String ends) implements Ref {
        public String key() {
            return "cable:" + ends;
        }
    }

    /** The host at the HCA end of a cable the finding concerns (what a cable fault takes from that host). */
    record HcaEnd(String host) implements Ref {
        public String key() {
            return "ca:" + host;
        }
    }

    /** Two hosts tested against each other (RDMA pair tests), in name order. */
    record Pair(String a, String b) implements Ref {
        public Pair {
            if (a.compareTo(b) > 0) {
                String t = a;
                a = b;
                b = t;
            }
        }

        public String key() {
            return "pair:" + a + "|" + b;
        }
    }

    /** A partition, by its name in partitions.conf or its P_Key ("Default", "0x8001"). */
    record Partition(String name) implements Ref {
        public String key() {
            return "partition:" + name;
        }
    }

    /** A subnet manager, by the node it runs on ("SM lid 1" where only its LID is known). */
    record Sm(String node) implements Ref {
        public String key() {
            return "sm:" + node;
        }
    }

    /** A switch or other node that is not a host, by name. */
    record Node(String name) implements Ref {
        public String key() {
            return "node:" + name;
        }
    }
}
