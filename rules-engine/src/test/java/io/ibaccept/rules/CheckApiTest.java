package io.ibaccept.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ibaccept.dump.Cmd;
import io.ibaccept.dump.sources.Source;
import io.ibaccept.dump.sources.Sources;
import io.ibaccept.rules.checks.Checks;
import io.ibaccept.safety.Shell;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Check contract: declared inputs make the engine SKIP uniformly, declared settings are typed at load time. */
class CheckApiTest {
    @TempDir
    Path tmp;

    @Test
    void everyCheckHasItsTitleAndDeclaresValidDefaults() {
        RuleConfig d = RuleConfig.defaults();
        Set<String> ids = new HashSet<>();
        for (Check c : Checks.all()) {
            assertThat(ids.add(c.id())).as("unique id " + c.id()).isTrue();
            assertThat(d.text(c.id(), "title")).as(c.id() + ".title").isNotEmpty();
            Set<String> keys = new HashSet<>();
            for (Setting s : c.settings()) {
                assertThat(keys.add(s.key())).as("setting declared once: " + c.id() + "." + s.key()).isTrue();
                assertThat(s.type().validate(s.defaultValue())).as(c.id() + "." + s.key() + " default").isNull();
                assertThat(s.description()).as(c.id() + "." + s.key() + " description").isNotBlank();
                assertThat(RuleConfig.isText(c.id(), s.key())).as(c.id() + "." + s.key() + " is named like a text").isFalse();
                assertThat(d.text(c.id(), s.key())).as(c.id() + "." + s.key()).isEqualTo(s.defaultValue().trim());
            }
        }
    }

    @Test
    void bundledTextFilesHoldTextsOnly() {
        for (String file : RuleConfig.BUNDLED)
            assertThat(RuleConfig.textProblems(file, RuleConfig.bundled(file), Checks.all())).as(file).isEmpty();
    }

    @Test
    void aTextFileThatRepeatsADefaultOrHoldsAnUndeclaredSettingIsRefused() {
        String content = "link.width.title=Link width\nlink.width.cause.capability=x\n# comment\nlink.width.expected.host=auto\n"
                + "link.errors.window.symbol_fail_per_day=3\nlink.errors.window.fix.flap=y\nlnk.width.title=z\nlink.errors.window.fix.flap=again\n";
        assertThat(RuleConfig.textProblems("link.properties", content, Checks.all())).containsExactly(
                "link.properties:4: link.width.expected.host repeats a default: Width.settings() declares it (auto)",
                "link.properties:5: link.errors.window.symbol_fail_per_day is not a text (title, cause[.variant], fix[.variant]) and "
                        + "LinkErrorsWindow.settings() does not declare it",
                "link.properties:7: lnk.width.title belongs to no check (no check id is a prefix of it)",
                "link.properties:8: link.errors.window.fix.flap is given twice");
    }

    @Test
    void textsAreInTheirFamilysFileInTheOrderOfTheChecks() {
        assertThat(RuleConfig.textProblems("link.properties", "link.speed.title=s\nlink.width.title=w\npcie.title=p\n",
                Checks.all())).containsExactly(
                "link.properties:2: link.width.title is out of order: the block of link.width goes before that of link.speed, as in Checks.all()",
                "link.properties:3: pcie.title belongs in host.properties, the file of its check's family");
        for (Check c : Checks.all()) assertThat(Checks.Family.of(c.id())).as(c.id()).isNotNull();
        assertThatThrownBy(() -> Checks.Family.of("nvlink.width")).hasMessage("check nvlink.width is in no family: list 'nvlink' in Checks.Family");
    }

    @Test
    void aSettingReadWithoutItsDeclarationFailsTheCheck() {
        assertThatThrownBy(() -> RuleConfig.defaults().number("link.errors", "symbol_warm"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("rule setting link.errors.symbol_warm is read but not declared by check link.errors");
        assertThatThrownBy(() -> RuleConfig.defaults().text("memlock", "max_kib")).isInstanceOf(IllegalStateException.class);
        Check undeclared = new Check() {
            public String id() {
                return "memlock";
            }

            public List<Input> inputs() {
                return List.of();
            }

            public void evaluate(Ctx ctx) {
                ctx.pass("limit " + ctx.list("hosts"), List.of(), List.of());
            }
        };
        Report r = new RulesEngine(RuleConfig.defaults(), List.of(undeclared)).run(io.ibaccept.dump.DumpLoader.load(TestDump.healthy(tmp.resolve("u"), 2).dir));
        assertThat(r.findings()).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.ERROR);
            assertThat(f.summary()).isEqualTo("check could not be evaluated: rule setting memlock.hosts is read but not declared by check memlock");
        });
    }

    @Test
    void typedValuesAreRejectedAtLoadWithFileAndLine() {
        assertThatThrownBy(() -> TestDump.config(tmp, "# site\n\nperftest.bw.min_percent=ninety\n"))
                .isInstanceOf(RuleConfig.BadRulesFile.class)
                .hasMessageEndingWith("site-rules.properties:3: 'perftest.bw.min_percent' must be a number, found 'ninety'");
        assertThatThrownBy(() -> TestDump.config(tmp, "link.errors.symbol_warn=NaN\n"))
                .hasMessageEndingWith(":1: 'link.errors.symbol_warn' must be a finite number, found 'NaN'");
        assertThatThrownBy(() -> TestDump.config(tmp, "x.y=\\\n  z\nlink.errors.symbol_fail=Infinity\n"))
                .hasMessageContaining(":1: unknown rule setting 'x.y'");
        assertThatThrownBy(() -> TestDump.config(tmp, "link.errors.symbol_warn=1\nlink.errors.symbol_fail=-Infinity\n"))
                .hasMessageContaining(":2: 'link.errors.symbol_fail'");
        assertThatThrownBy(() -> TestDump.config(tmp, "link.errors.symbol_fail=-3\n")).hasMessageContaining("must not be negative");
        assertThatThrownBy(() -> TestDump.config(tmp, "link.speed.expected=HDR200\n"))
                .hasMessageEndingWith(":1: 'link.speed.expected' unknown speed 'HDR200' (expected auto or one of SDR DDR QDR FDR10 FDR EDR HDR NDR XDR)");
        assertThatThrownBy(() -> TestDump.config(tmp, "link.width.expected=3X\n")).hasMessageContaining("unknown link width '3X'");
        assertThatThrownBy(() -> TestDump.config(tmp, "memlock.min_kib=lots\n")).hasMessageContaining("must be a number or 'unlimited'");
        assertThatThrownBy(() -> TestDump.config(tmp, "ethtool.enabled=no\n")).hasMessageContaining("must be true or false");
        assertThat(TestDump.config(tmp, "link.speed.expected=fdr10\nmemlock.min_kib=65536\n").text("link.speed", "expected")).isEqualTo("fdr10");
    }

    @Test
    void keyLinesFollowPropertiesSyntax() {
        var m = RuleConfig.keyLines("# c\n! c\na.b = 1\nlong.key=x\\\n   y.z=continued\n  c.d:2\ne\\.f 3\na.b=again\n");
        assertThat(m).containsEntry("long.key", 4).containsEntry("c.d", 6).containsEntry("e.f", 7).containsEntry("a.b", 8)
                .doesNotContainKey("y.z");
    }

    @Test
    void engineSkipsACheckWhoseInputsAreUnusableWithTheCollectHint() {
        TestDump d = TestDump.healthy(tmp.resolve("d"), 4);
        Report r = d.analyze();
        assertThat(TestDump.of(r, "ethtool")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.SKIP);
            assertThat(f.summary()).isEqualTo("needs ethtool-S: ethtool-S not collected (collect with --ethtool IFACE for RoCE/Ethernet ports)");
        });
        // alternatives: link.errors needs ibqueryerrors OR perfquery OR ibdiagnet2.db_csv OR ibdiagnet2.pm; a garbage file
        // keeps no record (each bad line is its own input finding) and is not a usable input
        d.write("fabric/ibqueryerrors.out", "garbage that is not ibqueryerrors\n");
        d.delete("fabric/perfquery.out").delete("fabric/perfquery.meta");
        r = d.analyze();
        assertThat(TestDump.of(r, "link.errors")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.SKIP);
            assertThat(f.summary()).startsWith("needs ibqueryerrors or perfquery or ibdiagnet2.db_csv or ibdiagnet2.pm: ibqueryerrors fabric/ibqueryerrors.out")
                    .contains("perfquery fabric/perfquery.out: file missing from the dump (collect with 'ibaccept collect --nodes NODES --fabric-node NODE -o DUMP --only perfquery')");
        });
    }

    @Test
    void aNewCheckIsOneClass() {
        Check c = new Check() {
            public String id() {
                return "mtu";
            }

            public List<Input> inputs() {
                return List.of(Input.of(Cmd.MLXLINK));
            }

            public void evaluate(Ctx ctx) {
                throw new AssertionError("must not run without its input");
            }
        };
        Report r = new RulesEngine(RuleConfig.defaults(), List.of(c)).run(io.ibaccept.dump.DumpLoader.load(TestDump.healthy(tmp.resolve("e"), 2).dir));
        assertThat(r.findings()).singleElement().satisfies(f -> assertThat(f.status()).isEqualTo(Status.SKIP));
    }

    @Test
    void shellQuoting() {
        // fix texts quote with the project's one quoting place, io.ibaccept.safety.Shell
        assertThat(Shell.quote("cn052")).isEqualTo("cn052");
        assertThat(Shell.quote("cn052 mlx5_0")).isEqualTo("'cn052 mlx5_0'");
        assertThat(Shell.quote("MF0;ib-leaf03:MQM8700/U1")).isEqualTo("'MF0;ib-leaf03:MQM8700/U1'");
        assertThat(Shell.quote("it's")).isEqualTo("'it'\\''s'");
        assertThat(Shell.quote("$(reboot)")).isEqualTo("'$(reboot)'");
        assertThat(Shell.quote("`id`|x&y>z")).isEqualTo("'`id`|x&y>z'");
        assertThat(Shell.quote("")).isEqualTo("''");
        assertThat(Shell.quote("nœud")).isEqualTo("'nœud'");
        // a fix text is one line: a newline in a name is shown as '?', inside the quotes
        assertThat(RuleConfig.defaults().fill("input", "fix", java.util.Map.of("command", "ibstat", "host", "a\nb;c")))
                .contains("--nodes 'a?b;c' -o DUMP").doesNotContain("\n");
        assertThat(RuleConfig.defaults().fill("input", "fix", java.util.Map.of("command", "ibstat", "host", "a;b")))
                .contains("--nodes 'a;b' -o DUMP --only ibstat");
    }

    /** ibaccept options that fix texts and collect hints may name, per subcommand (collect --only is the CLI's re-collect option). */
    static final java.util.Map<String, Set<String>> OPTIONS = java.util.Map.of(
            "collect", Set.of("--nodes", "--hostfile", "--slurm", "-o", "--fabric-node", "--only", "--mlxlink", "--ibdiagnet", "--ethtool",
                    "--probe-cmd", "--transport", "--parallel", "--cluster", "--window", "--clear-counters", "--sm-nodes"),
            "rdma", Set.of("--nodes", "-o", "--tests", "--pattern", "--device", "--retest"),
            "analyze", Set.of("-o", "--rules"),
            "probe", Set.of());

    @Test
    void fixTextsAndCollectHintsNameOnlyIbacceptOptionsThatExist() {
        java.util.Properties p = RuleConfig.defaults().asProperties();
        java.util.Map<String, String> texts = new java.util.TreeMap<>();
        for (String k : p.stringPropertyNames()) texts.put(k, p.getProperty(k));
        for (Source<?> s : Sources.all()) texts.put("collect hint of " + s.fileName(), s.hint());
        java.util.regex.Pattern cmd = java.util.regex.Pattern.compile("ibaccept (collect|rdma|analyze|probe|bench|sim-capture)([^'\\)]*)");
        int seen = 0;
        for (String k : texts.keySet()) {
            java.util.regex.Matcher m = cmd.matcher(texts.get(k));
            while (m.find()) {
                seen++;
                assertThat(OPTIONS).as(k + ": subcommand " + m.group(1)).containsKey(m.group(1));
                for (String word : m.group(2).trim().split("\\s+"))
                    if (word.startsWith("-")) assertThat(OPTIONS.get(m.group(1))).as(k + ": option " + word).contains(word);
            }
        }
        assertThat(seen).isGreaterThan(10);
    }

    @Test
    void hostileNamesAreQuotedInFixCommands() {
        TestDump d = TestDump.healthy(tmp.resolve("q"), 8);
        // a switch named as real switches are by default, and a host link degraded to 1X behind it
        d.write("fabric/iblinkinfo.out", d.read("fabric/iblinkinfo.out").replace("leaf001", "MF0;ib-leaf03:MQM8700/U1")
                .replace("0x0c42a10300100004   1002    1[  ] ==( 4X ", "0x0c42a10300100004   1002    1[  ] ==( 1X ")
                .replace("==( 4X         53.125 Gbps Active/  LinkUp)==>    1002    1[  ]", "==( 1X         53.125 Gbps Active/  LinkUp)==>    1002    1[  ]"));
        Report r = d.analyze();
        assertThat(TestDump.problems(r, "link.width")).singleElement().satisfies(f -> {
            assertThat(f.summary()).contains("MF0;ib-leaf03:MQM8700/U1 port 3");
            assertThat(f.fix()).contains("grep -F 'cn0003 HCA-1'");
        });
        assertThat(RuleConfig.defaults().fill("sm.count", "fix.rogue", java.util.Map.of("host", "cn052 mlx5_0")))
                .contains("'ssh 'cn052 mlx5_0' systemctl disable --now opensm'");
    }
}
