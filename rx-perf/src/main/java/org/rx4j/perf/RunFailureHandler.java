// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf;

import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.ParseResult;

/** A failure while running: {@code rxperf: <problem>} on stderr, exit 1; the stack trace only with --debug. */
final class RunFailureHandler implements IExecutionExceptionHandler {
    /**
     * Prints the failure.
     *
     * @param ex the failure
     * @param commandLine the command that ran
     * @param parseResult the whole parse result (to see --debug)
     * @return {@link CommandLine.ExitCode#SOFTWARE} (1), or the failure's own code ({@link RxperfFailure#exitCode})
     */
    @Override
    public int handleExecutionException(Exception ex, CommandLine commandLine, ParseResult parseResult) {
        PrintWriter err = commandLine.getErr();
        err.println("rxperf: " + FailureMessages.describe(ex));
        if (debugRequested(parseResult)) {
            ex.printStackTrace(err);
        }
        err.flush();
        return ex instanceof RxperfFailure f ? f.exitCode() : CommandLine.ExitCode.SOFTWARE;
    }

    private static boolean debugRequested(ParseResult parseResult) {
        for (ParseResult result = parseResult; result != null; result = result.subcommand()) {
            if (result.hasMatchedOption("--debug")) {
                return true;
            }
        }
        return false;
    }
}
