package org.rx4j.engine;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The layering of design.md ("Layers inside rx-core", arrows point down only): the sans-I/O engine and the
 * stateless wire codec touch no sockets, channels or threads of Netty, and never reach up into the transport
 * or RPC layers; the wire codec depends on no other rx4j package.
 */
class LayeringArchTest {
    private static final JavaClasses MAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("org.rx4j");

    @Test
    void theImportSeesTheLayers() {
        assertTrue(MAIN.contain(RxEngine.class), "engine classes imported");
        assertTrue(MAIN.contain(org.rx4j.wire.PacketDecoder.class), "wire classes imported");
        assertTrue(MAIN.stream().noneMatch(c -> c.getSimpleName().endsWith("Test")), "main classes only");
    }

    @Test
    void engineAndWireImportNoNettyChannelsBootstrapTransportOrRpc() {
        noClasses().that().resideInAnyPackage("org.rx4j.engine..", "org.rx4j.wire..")
                .should().dependOnClassesThat(resideInAnyPackage("io.netty.channel..", "io.netty.bootstrap..",
                        "org.rx4j.transport..", "org.rx4j.rpc.."))
                .because("the engine is sans-I/O and the codec stateless (design.md)")
                .check(MAIN);
    }

    @Test
    void wireDependsOnNoOtherRx4jPackage() {
        noClasses().that().resideInAPackage("org.rx4j.wire..")
                .should().dependOnClassesThat(resideInAPackage("org.rx4j..").and(not(resideInAPackage("org.rx4j.wire.."))))
                .because("wire knows bytes and nothing else (design.md)")
                .check(MAIN);
    }
}
