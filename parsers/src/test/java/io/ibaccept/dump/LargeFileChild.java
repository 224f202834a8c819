package io.ibaccept.dump;

import io.ibaccept.model.ClusterData;
import io.ibaccept.model.InputProblem;
import java.nio.file.Path;

/** Loads a dump in a JVM of its own (LargeInputTest starts it with a small heap) and prints what it found. */
public final class LargeFileChild {
    private LargeFileChild() {}

    public static void main(String[] args) {
        ClusterData d = DumpLoader.load(Path.of(args[0]), Long.parseLong(args[1]) << 20);
        var errors = d.fabric().errorCounters();
        System.out.println("records=" + (errors == null ? -1 : errors.size()));
        long file = d.problems().stream().filter(p -> p.file().equals("fabric/ibqueryerrors.out")).count();
        System.out.println("problems=" + file);
        d.problems().stream().filter(p -> p.message().contains("more problem(s)")).map(InputProblem::where)
                .forEach(w -> System.out.println("summary=" + w));
        Runtime rt = Runtime.getRuntime();
        System.out.println("heap_used_mib=" + ((rt.totalMemory() - rt.freeMemory()) >> 20));
    }
}
