// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf;

import picocli.CommandLine.Option;

/**
 * {@code -h/--help} and {@code --version} for the subcommands. Not picocli's standard mixin, whose {@code -V} would
 * shadow OpenAFS rxperf's {@code -V} (rx_Readv) with a different meaning.
 */
public final class HelpFlags {
    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
    boolean help;

    @Option(names = "--version", versionHelp = true, description = "Print the version and exit.")
    boolean version;
}
