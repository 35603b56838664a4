// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

/**
 * The {@code rx-gen} command line (picocli): {@code java -jar rx-gen.jar -d OUT [-p PACKAGE] FILE.xg}; exit 1 with file:line:column on bad input, 2 on bad flags.
 */
package org.rx4j.gen.cli;
