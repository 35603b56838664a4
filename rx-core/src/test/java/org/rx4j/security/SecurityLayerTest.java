// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.security;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The security layer sits below the engine: it may use only itself, the wire codec, Netty buffers and the JDK
 * (including its cryptography, javax.crypto, which rxkad's tickets and key derivation use).
 */
class SecurityLayerTest {

    @Test
    void securityImportsOnlyWireAndNettyBuffer() {
        JavaClasses imported = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("org.rx4j.security");
        assertTrue(imported.contain(SecurityClass.class), "the production classes were imported");
        classes().that().resideInAPackage("org.rx4j.security..")
                .should().onlyDependOnClassesThat()
                .resideInAnyPackage("org.rx4j.security..", "org.rx4j.wire..", "io.netty.buffer..", "java..",
                        "javax.crypto..")
                .check(imported);
    }
}
