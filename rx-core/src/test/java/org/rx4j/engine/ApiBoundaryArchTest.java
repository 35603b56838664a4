// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaMember;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.domain.JavaType;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.rx4j.rpc.RxEndpoint;

/**
 * The public API is a small named set of packages (org.rx4j.rpc, .rpc.channel, .rpc.errors, .rpc.stats, .rpc.xdr,
 * .rpc.debug, .config, .counters, .security, .security.rxkad; module-info.java) and hands out no internal type; its
 * errors need no other rpc package, and its core package never names the pools and channels built on it; the
 * top-level packages have no dependency cycle (design.md, "Layers inside rx-core", "As built").
 */
class ApiBoundaryArchTest {
    private static final JavaClasses MAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("org.rx4j");
    private static final String[] API = {"org.rx4j.rpc", "org.rx4j.rpc.channel", "org.rx4j.rpc.errors",
        "org.rx4j.rpc.stats", "org.rx4j.rpc.xdr", "org.rx4j.rpc.debug", "org.rx4j.config..", "org.rx4j.counters..",
        "org.rx4j.security.."};
    private static final String[] INTERNAL = {"org.rx4j.engine", "org.rx4j.transport", "org.rx4j.wire"};

    @Test
    void topLevelPackagesAreFreeOfCycles() {
        slices().matching("org.rx4j.(*)..").should().beFreeOfCycles()
                .because("layers point one way: wire <- config <- engine <- transport <- rpc (design.md)")
                .check(MAIN);
    }

    /** The API's errors sit below the rest of it: every part raises them, and they need no other rpc package. */
    @Test
    void errorsDependOnNoOtherRpcPackage() {
        noClasses().that().resideInAPackage("org.rx4j.rpc.errors")
                .should().dependOnClassesThat(resideInAPackage("org.rx4j.rpc..")
                        .and(not(resideInAPackage("org.rx4j.rpc.errors"))))
                .because("RxException and RxCodes are raised by every rpc package (design.md, \"As built\")")
                .check(MAIN);
    }

    /** Pools and channels are built on the core API's connections and calls, never the other way round. */
    @Test
    void theCoreApiDoesNotDependOnPoolsAndChannels() {
        noClasses().that().resideInAPackage("org.rx4j.rpc")
                .should().dependOnClassesThat().resideInAPackage("org.rx4j.rpc.channel")
                .because("org.rx4j.rpc.channel sits above org.rx4j.rpc (design.md, \"As built\")")
                .check(MAIN);
    }

    @Test
    void apiSignaturesExposeNoEngineTransportOrWireType() {
        assertTrue(MAIN.contain(RxEndpoint.class), "API classes imported");
        classes().that().resideInAnyPackage(API).and().arePublic()
                .should(exposeNoInternalType())
                .because("users must not need (nor be handed) the loop-confined engine, the transport or the codec")
                .check(MAIN);
    }

    @Test
    void moduleExportsOnlyTheApiPackages() throws URISyntaxException {
        Path classes = Path.of(RxEndpoint.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        ModuleDescriptor d = ModuleFinder.of(classes).find("org.rx4j.core").orElseThrow().descriptor();
        Set<String> exported = d.exports().stream().map(ModuleDescriptor.Exports::source)
                .collect(Collectors.toCollection(TreeSet::new));
        assertEquals(new TreeSet<>(List.of("org.rx4j.config", "org.rx4j.counters", "org.rx4j.rpc",
                "org.rx4j.rpc.channel", "org.rx4j.rpc.debug", "org.rx4j.rpc.errors", "org.rx4j.rpc.stats",
                "org.rx4j.rpc.xdr", "org.rx4j.security", "org.rx4j.security.rxkad")), exported);
        assertTrue(d.exports().stream().noneMatch(ModuleDescriptor.Exports::isQualified), "no qualified export");
        assertTrue(d.opens().isEmpty() && !d.isOpen(), "nothing opened for reflection");
    }

    private static boolean visible(JavaClass c) {
        for (JavaClass k = c; k != null; k = k.getEnclosingClass().orElse(null)) {
            if (!k.getModifiers().contains(JavaModifier.PUBLIC)) {
                return false;
            }
        }
        return true;
    }

    private static boolean internal(JavaClass t) {
        JavaClass base = t.isArray() ? t.getBaseComponentType() : t;
        for (String p : INTERNAL) {
            if (base.getPackageName().equals(p) || base.getPackageName().startsWith(p + ".")) {
                return true;
            }
        }
        return false;
    }

    private static ArchCondition<JavaClass> exposeNoInternalType() {
        return new ArchCondition<>("expose no type of org.rx4j.engine, .transport or .wire in a public signature") {
            @Override
            public void check(JavaClass c, ConditionEvents events) {
                if (!visible(c)) {
                    return;
                }
                List<JavaType> supertypes = new ArrayList<>();
                c.getRawSuperclass().ifPresent(supertypes::add);
                supertypes.addAll(c.getInterfaces());
                List<JavaType> types = new ArrayList<>();
                for (JavaMember m : c.getMembers()) {
                    Set<JavaModifier> mods = m.getModifiers();
                    if (!mods.contains(JavaModifier.PUBLIC) && !mods.contains(JavaModifier.PROTECTED)) {
                        continue;
                    }
                    if (m instanceof JavaField f) {
                        types.add(f.getType());
                    } else if (m instanceof JavaCodeUnit u) {
                        types.add(u.getReturnType());
                        types.addAll(u.getParameterTypes());
                        types.addAll(u.getThrowsClause().getTypes());
                    }
                    for (JavaType t : types) {
                        for (JavaClass raw : t.getAllInvolvedRawTypes()) {
                            if (internal(raw)) {
                                events.add(SimpleConditionEvent.violated(m, m.getFullName() + " exposes "
                                        + raw.getName()));
                            }
                        }
                    }
                    types.clear();
                }
                for (JavaType t : supertypes) {
                    for (JavaClass raw : t.getAllInvolvedRawTypes()) {
                        if (internal(raw)) {
                            events.add(SimpleConditionEvent.violated(c, c.getName() + " extends " + raw.getName()));
                        }
                    }
                }
            }
        };
    }
}
