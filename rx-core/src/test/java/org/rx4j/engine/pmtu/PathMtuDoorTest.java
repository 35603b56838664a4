// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.pmtu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.rx4j.engine.call.CallSender;

/**
 * The path-MTU room has one door (docs/engine.md "Path MTU below one full packet", "The prober's door"): the call's
 * prober shows at most eight methods, and only the call's sender (its one owner) names it; the other parts of the
 * call tell the sender what happened.
 */
class PathMtuDoorTest {
    private static final JavaClasses MAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("org.rx4j");

    @Test
    void theProberHasOneDoorOfAtMostEightMethods() {
        List<String> door = Arrays.stream(PathMtuProber.class.getDeclaredMethods())
                .filter(m -> Modifier.isPublic(m.getModifiers()))
                .map(Method::getName)
                .sorted()
                .toList();
        assertTrue(door.size() <= 8, "the prober's public methods: " + door);
    }

    @Test
    void onlyTheCallsSenderNamesTheProber() {
        Set<String> users = new TreeSet<>();
        MAIN.stream()
                .filter(c -> !c.getPackageName().equals(PathMtuProber.class.getPackageName()))
                .forEach(c -> c.getDirectDependenciesFromSelf().stream()
                        .filter(d -> d.getTargetClass().isEquivalentTo(PathMtuProber.class))
                        .forEach(d -> users.add(c.getName().replaceFirst("\\$.*", ""))));
        assertEquals(Set.of(CallSender.class.getName()), users, "the prober's one owner");
    }
}
