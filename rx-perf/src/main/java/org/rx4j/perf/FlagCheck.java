// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf;

import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/**
 * Range and combination checks of parsed flags. Each failure is a picocli usage error (exit 2) with a one-line
 * message naming the flag, e.g. {@code Invalid value for option '-t': 200 is not in 1..128}.
 */
final class FlagCheck {
    private final CommandLine commandLine;

    /**
     * @param commandLine the (sub)command whose flags are checked, for the usage-error hint
     */
    FlagCheck(CommandLine commandLine) {
        this.commandLine = commandLine;
    }

    /**
     * Checks {@code min <= value <= max}.
     *
     * @param flag the flag as typed, e.g. {@code -t}
     * @param value its value
     * @param min smallest allowed
     * @param max largest allowed
     * @throws ParameterException if out of range
     */
    void range(String flag, long value, long min, long max) {
        if (value < min || value > max) {
            throw invalid(flag, value + " is not in " + min + ".." + max);
        }
    }

    /**
     * Checks an optional value's range; null passes.
     *
     * @param flag the flag
     * @param value its value or null if not given
     * @param min smallest allowed
     * @param max largest allowed
     * @throws ParameterException if given and out of range
     */
    void range(String flag, Integer value, long min, long max) {
        if (value != null) {
            range(flag, value.longValue(), min, max);
        }
    }

    /**
     * Whether a flag was on the command line (not just its default).
     *
     * @param flag the flag as declared, e.g. {@code -T}
     * @return true if given
     */
    boolean matched(String flag) {
        return commandLine.getParseResult() != null && commandLine.getParseResult().hasMatchedOption(flag);
    }

    /**
     * A usage error about one flag's value.
     *
     * @param flag the flag
     * @param problem what is wrong, e.g. {@code 200 is not in 1..128}
     * @return the exception to throw
     */
    ParameterException invalid(String flag, String problem) {
        return new ParameterException(commandLine, "Invalid value for option '" + flag + "': " + problem);
    }

    /**
     * A usage error about flags together.
     *
     * @param message the whole message
     * @return the exception to throw
     */
    ParameterException usage(String message) {
        return new ParameterException(commandLine, message);
    }
}
