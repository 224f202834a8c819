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
                .layer("collect").definedBy("io.ibaccept.collect..")
                .layer("rdma").definedBy("io.ibaccept.rdma..")
                .layer("report").definedBy("io.ibaccept.report..")
                .layer("cli").definedBy("io.ibaccept.cli..")
                .whereLayer("cli").mayNotBeAccessedByAnyLayer()
                .whereLayer("report").mayOnlyBeAccessedByLayers("cli")
                .whereLayer("rdma").mayOnlyBeAccessedByLayers("cli")
                .whereLayer("collect").mayOnlyBeAccessedByLayers("rdma", "cli")
                .whereLayer("rules").mayOnlyBeAccessedByLayers("report", "rdma", "cli")
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
}
