package io.ibaccept.cli;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Keeps the pipeline's layering: model and parsers at the bottom, rules over them, reports over rules, the CLI on top. */
class LayeringTest {
    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("io.ibaccept");
    }

    @Test
    void modulesOnlyUseTheLayersBelowThem() {
        layeredArchitecture().consideringOnlyDependenciesInLayers()
                .layer("model").definedBy("io.ibaccept.model..", "io.ibaccept.parse..", "io.ibaccept.dump..", "io.ibaccept.safety..", "io.ibaccept.fabric..")
                .layer("samples").definedBy("io.ibaccept.samples..")
                .layer("rules").definedBy("io.ibaccept.rules..")
                .layer("analysis").definedBy("io.ibaccept.analysis..")
                .layer("collect").definedBy("io.ibaccept.collect..")
                .layer("rdma").definedBy("io.ibaccept.rdma..")
                .layer("report").definedBy("io.ibaccept.report..")
                .layer("cli").definedBy("io.ibaccept.cli..")
                .whereLayer("cli").mayNotBeAccessedByAnyLayer()
                .whereLayer("report").mayOnlyBeAccessedByLayers("cli")
                .whereLayer("rdma").mayOnlyBeAccessedByLayers("cli")
                .whereLayer("collect").mayOnlyBeAccessedByLayers("rdma", "cli")
                .whereLayer("analysis").mayOnlyBeAccessedByLayers("report", "rdma", "cli")
                .whereLayer("rules").mayOnlyBeAccessedByLayers("analysis", "report", "rdma", "cli")
                .whereLayer("samples").mayOnlyBeAccessedByLayers("cli")
                .check(classes);
    }

    @Test
    void modelRecordsDoNotDependOnTheGraphAnalysesBuiltFromThem() {
        noClasses().that().resideInAPackage("io.ibaccept.model..")
                .should().dependOnClassesThat().resideInAnyPackage("io.ibaccept.fabric..", "io.ibaccept.safety..")
                .check(classes);
    }

    @Test
    void parsersArePureFunctionsWithoutFileOrProcessAccess() {
        noClasses().that().resideInAnyPackage("io.ibaccept.parse..", "io.ibaccept.model..")
                .should().dependOnClassesThat().haveFullyQualifiedName("java.nio.file.Files")
                .orShould().dependOnClassesThat().haveFullyQualifiedName("java.lang.ProcessBuilder")
                .orShould().dependOnClassesThat().haveFullyQualifiedName("java.io.FileInputStream")
                .check(classes);
    }

    @Test
    void checksReadTheFabricGraphFromTheContextInsteadOfBuildingTheirOwn() {
        noClasses().that().resideInAPackage("io.ibaccept.rules.checks..")
                .should().dependOnClassesThat().haveFullyQualifiedName("io.ibaccept.fabric.FabricBuilder")
                .orShould().dependOnClassesThat().haveSimpleNameEndingWith("Loader")
                .check(classes);
    }

    /**
     * The fabric graph, its fat-tree reading, the plan comparison, the RDMA analysis and the counter-window judgement are derived once per analysis (DumpFacts) and
     * handed forward: nothing else builds them again (CablingPlan reads a golden ibnetdiscover into its own graph; the
     * resilience run walks its twin with one cable or switch out, a graph per loss of a fabric that is not the dump's).
     */
    @Test
    void theFabricGraphAndThePerformanceAnalysisAreBuiltOnlyByTheAnalysis() {
        noClasses().that().doNotHaveFullyQualifiedName("io.ibaccept.rules.DumpFacts")
                .and().doNotHaveFullyQualifiedName("io.ibaccept.fabric.CablingPlan")
                .and().doNotHaveFullyQualifiedName("io.ibaccept.fabric.FabricBuilder")
                .and().doNotHaveFullyQualifiedName("io.ibaccept.collect.ResilienceRun")
                .should().dependOnClassesThat().haveFullyQualifiedName("io.ibaccept.fabric.FabricBuilder")
                .check(classes);
        noClasses().that().doNotHaveFullyQualifiedName("io.ibaccept.rules.DumpFacts")
                .should().callMethod("io.ibaccept.rules.perf.PerfAnalysis", "of", "io.ibaccept.model.ClusterData", "io.ibaccept.rules.RuleConfig")
                .orShould().callMethod("io.ibaccept.fabric.PlanDiff", "compare", "io.ibaccept.fabric.Fabric", "io.ibaccept.fabric.CablingPlan")
                .orShould().callMethod("io.ibaccept.fabric.FatTree", "validate", "io.ibaccept.fabric.Fabric", "io.ibaccept.fabric.FatTree$Settings")
                .orShould().callConstructor("io.ibaccept.rules.FabricIndex", "io.ibaccept.model.ClusterData", "io.ibaccept.fabric.Fabric")
                .orShould().callConstructor("io.ibaccept.rules.counters.WindowJudge", "io.ibaccept.model.ClusterData",
                        "io.ibaccept.rules.counters.CounterWindowData", "io.ibaccept.rules.counters.WindowJudge$Limits")
                .check(classes);
    }

    /** A report writer renders an Analysis: it neither loads a dump nor runs the checks nor derives their facts. */
    @Test
    void reportWritersOnlyRenderAnAnalysis() {
        noClasses().that().resideInAPackage("io.ibaccept.report..")
                .should().dependOnClassesThat().haveSimpleNameEndingWith("Loader")
                .orShould().dependOnClassesThat().haveFullyQualifiedName("io.ibaccept.rules.RulesEngine")
                .orShould().dependOnClassesThat().haveFullyQualifiedName("io.ibaccept.rules.DumpFacts")
                .orShould().dependOnClassesThat().haveFullyQualifiedName("io.ibaccept.rules.CounterWindowTable")
                .orShould().dependOnClassesThat().resideInAPackage("io.ibaccept.rules.checks..")
                .check(classes);
    }
}
