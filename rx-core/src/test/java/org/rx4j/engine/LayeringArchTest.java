// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import java.util.Set;
import java.util.TreeSet;
import org.rx4j.engine.call.AckScheduler;
import org.rx4j.engine.call.Call;
import org.rx4j.engine.call.CallActivity;
import org.rx4j.engine.call.CallEvents;
import org.rx4j.engine.call.CallInbound;
import org.rx4j.engine.call.CallLifecycle;
import org.rx4j.engine.call.CallOutput;
import org.rx4j.engine.call.CallReceiver;
import org.rx4j.engine.call.CallSender;
import org.rx4j.engine.call.CallTimers;
import org.rx4j.engine.call.ReceiveQueue;
import org.rx4j.engine.connection.Connection;
import org.rx4j.engine.connection.ConnectionCallContext;
import org.rx4j.engine.connection.ConnectionTable;
import org.rx4j.engine.recovery.LossDetector;
import org.rx4j.engine.recovery.RecoveryManager;
import org.rx4j.engine.recovery.SendQueue;
import org.junit.jupiter.api.Test;

/**
 * The layering of design.md ("Layers inside rx-core", arrows point down only): the sans-I/O engine and the
 * stateless wire codec touch no sockets, channels or threads of Netty, and never reach up into the transport
 * or RPC layers; the wire codec depends on no other rx4j package. Inside the engine, ownership runs one way
 * (docs/engine.md "Classes"): a call's parts never reach the engine, its tables or the call itself, a call never
 * reaches the engine or its connection, a connection never reaches the engine, the engine packages form no cycle,
 * and few classes of the engine name each other both ways (docs/engine.md "Two-way references").
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

    /** The parts of a call: each gets its collaborators passed in and talks upward only through CallEvents/CallOutput. */
    private static final Class<?>[] CALL_PARTS = {CallSender.class, AckScheduler.class, CallTimers.class,
        CallReceiver.class, CallInbound.class, CallLifecycle.class, CallOutput.class, CallActivity.class,
        ReceiveQueue.class, SendQueue.class, LossDetector.class, RecoveryManager.class};

    /** What lies above a call: the engine, its tables, dispatch, queues and the connection's implementation. */
    private static final Class<?>[] ABOVE_A_CALL = {RxEngine.class, ConnectionTable.class, PacketDispatcher.class,
        EventQueue.class, TimerQueue.class, ServiceRegistry.class, EngineContext.class, ConnectionCallContext.class};

    @Test
    void thePartsOfACallNeverDependOnTheEngineItsTablesOrTheCall() {
        noClasses().that().belongToAnyOf(CALL_PARTS)
                .should().dependOnClassesThat().belongToAnyOf(ABOVE_A_CALL)
                .orShould().dependOnClassesThat().belongToAnyOf(Call.class, Connection.class)
                .because("ownership runs one way: a part gets what it needs passed in (docs/engine.md)")
                .check(MAIN);
    }

    @Test
    void aCallNeverDependsOnTheEngineOrItsTables() {
        noClasses().that().belongToAnyOf(Call.class)
                .should().dependOnClassesThat().belongToAnyOf(ABOVE_A_CALL)
                .because("a call talks to its owner only through the CallContext it was given")
                .check(MAIN);
    }

    @Test
    void aCallDoesNotDependOnItsConnection() {
        noClasses().that().belongToAnyOf(Call.class)
                .should().dependOnClassesThat().belongToAnyOf(Connection.class)
                .because("the application gets a CallOrigin value; the engine's work on the connection goes through"
                        + " ConnectionTable and ServiceRegistry (docs/engine.md)")
                .check(MAIN);
    }

    @Test
    void aConnectionNeverDependsOnTheEngineOrItsTables() {
        noClasses().that().belongToAnyOf(Connection.class, ConnectionCallContext.class)
                .should().dependOnClassesThat().belongToAnyOf(RxEngine.class, ConnectionTable.class,
                        PacketDispatcher.class, EventQueue.class, TimerQueue.class, ServiceRegistry.class,
                        EngineContext.class)
                .because("a connection talks to the engine only through the ConnectionContext it was given")
                .check(MAIN);
    }

    @Test
    void theEnginePackagesAreFreeOfCycles() {
        slices().assignedFrom(new SliceAssignment() {
            @Override
            public SliceIdentifier getIdentifierOf(JavaClass c) {
                String pkg = c.getPackageName();
                return pkg.startsWith("org.rx4j.engine") ? SliceIdentifier.of(pkg) : SliceIdentifier.ignore();
            }

            @Override
            public String getDescription() {
                return "the engine's packages";
            }
        }).should().beFreeOfCycles().check(MAIN);
    }

    /**
     * The engine's rooms from the bottom up (docs/engine.md "Packages"): each may use only the rooms below it, so the
     * telemetry knows nothing of peers, a call nothing of its connection's package, and only the top package knows
     * them all.
     */
    private static final String[] ROOMS = {"org.rx4j.engine.telemetry", "org.rx4j.engine.output",
        "org.rx4j.engine.peer", "org.rx4j.engine.security", "org.rx4j.engine.call", "org.rx4j.engine.connection",
        "org.rx4j.engine.admission", "org.rx4j.engine.debug"};

    @Test
    void eachEngineRoomUsesOnlyTheRoomsBelowIt() {
        for (int i = 0; i < ROOMS.length; i++) {
            String[] above = new String[ROOMS.length - i];
            above[0] = "org.rx4j.engine";
            System.arraycopy(ROOMS, i + 1, above, 1, ROOMS.length - i - 1);
            noClasses().that().resideInAPackage(ROOMS[i])
                    .should().dependOnClassesThat(resideInAnyPackage(above))
                    .because("the engine's rooms point down only (docs/engine.md \"Packages\")")
                    .check(MAIN);
        }
    }

    @Test
    void theEngineRoomsAreFilled() {
        for (String room : ROOMS) {
            assertTrue(MAIN.stream().anyMatch(c -> c.getPackageName().equals(room)), room + " imported");
        }
    }

    /**
     * The most pairs of classes of the engine's ownership tree (org.rx4j.engine and its rooms, not the cc, recovery
     * and pmtu algorithms) that name each other (docs/engine.md "Two-way references").
     */
    private static final int MAX_TWO_WAY = 4;

    @Test
    void fewEngineClassesNameEachOtherBothWays() {
        Set<String> edges = new TreeSet<>();
        for (JavaClass c : MAIN) {
            if (!ownership(c)) {
                continue;
            }
            for (Dependency d : c.getDirectDependenciesFromSelf()) {
                JavaClass t = d.getTargetClass();
                if (ownership(t) && !topLevel(c).equals(topLevel(t))) {
                    edges.add(topLevel(c) + " -> " + topLevel(t));
                }
            }
        }
        Set<String> pairs = new TreeSet<>();
        for (String e : edges) {
            String[] ab = e.split(" -> ");
            if (ab[0].compareTo(ab[1]) < 0 && edges.contains(ab[1] + " -> " + ab[0])) {
                pairs.add(ab[0] + " <-> " + ab[1]);
            }
        }
        assertTrue(edges.contains("Connection -> Call"), "the import sees the engine's dependencies: " + edges);
        assertTrue(pairs.size() <= MAX_TWO_WAY, "two-way references " + pairs);
    }

    /** @return whether {@code c} is in the engine's ownership tree: org.rx4j.engine or one of its rooms */
    private static boolean ownership(JavaClass c) {
        String pkg = c.getPackageName();
        return pkg.equals("org.rx4j.engine") || java.util.Arrays.asList(ROOMS).contains(pkg);
    }

    /** @return the simple name of {@code c}, or of the top-level class it is nested in */
    private static String topLevel(JavaClass c) {
        JavaClass k = c.isArray() ? c.getBaseComponentType() : c;
        String name = k.getName().substring(k.getPackageName().length() + 1);
        int nested = name.indexOf('$');
        return nested < 0 ? name : name.substring(0, nested);
    }
}
