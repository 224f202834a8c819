package io.ibaccept.collect;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A fake srun that behaves like Slurm's for what ibaccept uses: inside an allocation (FAKE_ALLOCATION, the nodes it
 * holds), a step over the nodes of -w/--nodelist (a name, a comma list, or a file when the value holds '/', as srun
 * reads it), one task per node started concurrently with SLURM_PROCID, SLURM_NODEID, SLURM_LOCALID, SLURMD_NODENAME,
 * SLURM_STEP_NODELIST, SLURM_STEP_ID, SLURM_JOB_ID and SLURM_STEP_NUM_TASKS set; --label prefixes each output line
 * with "%*d: " (the width of the largest task id), as write_labelled_message.c does. Task ids are given in the reverse
 * order of the list (Slurm orders nodes its own way: the caller must not rely on the order). An option it does not
 * know is an error, as in srun. Each invocation's argv is logged (one call a line, NUL-separated).
 *
 * Faults, by environment: FAKE_DOWN="n3 ..." (the task cannot be launched there: srun's "Task launch ... failed"
 * message), FAKE_KILL="n4:2" (the task's session is killed after 2 s: "srun: error: n4: task 1: Killed"),
 * FAKE_STALL="n5:3" (the task's output stops after 3 lines and the task never ends: a node that hangs).
 */
final class FakeSlurm {
    final Path bin;
    final Path log;

    FakeSlurm(Path dir) throws IOException {
        this.bin = Files.createDirectories(dir.resolve("slurm-bin"));
        this.log = dir.resolve("srun.log");
        Path srun = bin.resolve("srun");
        Files.writeString(srun, "#!/bin/bash\n"
                + "{ flock 9; printf '%s\\0' \"$0\" \"$@\" >&9; printf '\\n' >&9; } 9>> '" + log + "'\n"
                + ". '" + bin.resolve("env.sh") + "'\n"
                + """
                step=$(($(grep -c '' "$FAKE_STEPS" 2>/dev/null || echo 0))); echo x >> "$FAKE_STEPS"
                label=0; list=; N=; n=; npn=
                while [ $# -gt 0 ]; do
                  case "$1" in
                    --quiet|-Q|--overlap|--kill-on-bad-exit=0|--wait=0) shift ;;
                    --immediate=*) shift ;;
                    --label|-l) label=1; shift ;;
                    -N1) N=1; shift ;;
                    -n1) n=1; shift ;;
                    -N|--nodes) N=$2; shift 2 ;;
                    -n|--ntasks) n=$2; shift 2 ;;
                    --nodes=*) N=${1#*=}; shift ;;
                    --ntasks=*) n=${1#*=}; shift ;;
                    --ntasks-per-node=*) npn=${1#*=}; shift ;;
                    -w|--nodelist) list=$2; shift 2 ;;
                    --nodelist=*) list=${1#*=}; shift ;;
                    -*) echo "srun: unrecognized option '$1'" >&2; exit 1 ;;
                    *) break ;;
                  esac
                done
                if [[ $list == */* ]]; then mapfile -t nodes < <(grep -v '^#' "$list"); else IFS=, read -r -a nodes <<< "$list"; fi
                count=${#nodes[@]}
                for nd in "${nodes[@]}"; do
                  case " $FAKE_ALLOCATION " in *" $nd "*) ;; *) echo "srun: error: Unable to create step for job 42: Requested node configuration is not available" >&2; exit 1 ;; esac
                done
                if [ -z "$N" ] || [ "$N" != "$count" ] || [ "${n:-$N}" != "$count" ] || [ "${npn:-1}" != 1 ]; then
                  echo "srun: error: fake srun: -N $N -n $n --ntasks-per-node $npn for $count nodes" >&2; exit 1
                fi
                w=${#count}
                tmp=$(mktemp -d); pids=(); names=(); ids=()
                for ((k = 0; k < count; k++)); do
                  i=$((count - 1 - k)); nd=${nodes[$k]}
                  case " ${FAKE_DOWN:-} " in *" $nd "*) echo "srun: error: Task launch for StepId=42.$step failed on node $nd: Communication connection failure" >&2; continue ;; esac
                  stall=; for s in ${FAKE_STALL:-}; do [ "${s%%:*}" = "$nd" ] && stall=${s#*:}; done
                  (
                    me=$BASHPID
                    export SLURM_PROCID=$i SLURM_NODEID=$i SLURM_LOCALID=0 SLURMD_NODENAME=$nd SLURM_STEP_ID=$step SLURM_JOB_ID=42 \\
                      SLURM_STEP_NUM_TASKS=$count SLURM_STEP_NUM_NODES=$count SLURM_STEP_NODELIST=$(IFS=,; echo "${nodes[*]}")
                    setsid bash -c 'echo $$ > "$0"; exec "$@"' "$tmp/pg.$me" "$@" </dev/null |
                      { if [ -n "$stall" ]; then head -n "$stall"; sleep 100000; else cat; fi; } |
                      { if [ "$label" = 1 ]; then while IFS= read -r l || [ -n "$l" ]; do printf '%*d: %s\\n' "$w" "$i" "$l"; done; else cat; fi; }
                    exit "${PIPESTATUS[0]}"
                  ) &
                  pids+=($!); names+=("$nd"); ids+=($i)
                done
                for s in ${FAKE_KILL:-}; do
                  for ((j = 0; j < ${#names[@]}; j++)); do
                    [ "${names[$j]}" = "${s%%:*}" ] || continue
                    # every process of the task's session, as slurmstepd kills the step's cgroup (timeout(1) makes its own group)
                    p=${pids[$j]}; (sleep "${s#*:}"; pkill -KILL -s "$(cat "$tmp/pg.$p")") &
                  done
                done
                # as srun, each task's end is reported when it happens, not in the order of the tasks
                rc=0; running=("${pids[@]}")
                while [ "${#running[@]}" -gt 0 ]; do
                  wait -n -p ended "${running[@]}"; r=$?
                  rest=(); for p in "${running[@]}"; do [ "$p" = "$ended" ] || rest+=("$p"); done; running=("${rest[@]}")
                  for ((j = 0; j < ${#pids[@]}; j++)); do
                    [ "${pids[$j]}" = "$ended" ] || continue
                    if [ "$r" = 137 ]; then echo "srun: error: ${names[$j]}: task ${ids[$j]}: Killed" >&2
                    elif [ "$r" != 0 ]; then echo "srun: error: ${names[$j]}: task ${ids[$j]}: Exited with exit code $r" >&2; fi
                  done
                  [ "$r" -gt "$rc" ] && rc=$r
                done
                rm -rf "$tmp"; exit $rc
                """, StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(srun, PosixFilePermissions.fromString("rwx------"));
    }

    /**
     * What srun finds on the login node: an allocation of these nodes, the PATH its tasks get, and faults (see above).
     * Written to a file srun reads, since the collector starts srun with its own environment.
     */
    void allocate(List<String> allocation, String path, Map<String, String> faults) throws IOException {
        StringBuilder sb = new StringBuilder();
        sb.append("export FAKE_ALLOCATION='").append(String.join(" ", allocation)).append("' FAKE_STEPS='").append(log).append(".steps'")
                .append(" PATH='").append(path).append("' SLURM_JOB_ID=42\n");
        faults.forEach((k, v) -> sb.append("export ").append(k).append("='").append(v).append("'\n"));
        Files.writeString(bin.resolve("env.sh"), sb.toString());
    }

    /** Every srun invocation: its argv (argv[0] first). */
    List<List<String>> calls() throws IOException {
        List<List<String>> out = new ArrayList<>();
        if (!Files.exists(log)) return out;
        for (String line : Files.readString(log, StandardCharsets.UTF_8).split("\0\n", -1)) {
            if (!line.isEmpty()) out.add(List.of(line.split("\0", -1)));
        }
        return out;
    }
}
