// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf;

import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;

/**
 * Bad command line (unknown flag, bad number, missing or out-of-range value): one line naming the flag, one hint
 * line, exit 2 — instead of picocli's full usage dump. (OpenAFS rxperf prints its usage and exits 1.)
 */
final class UsageErrorHandler implements IParameterExceptionHandler {
    /**
     * Prints {@code rxperf: <message>} and {@code Try '<command> --help'} on the command's stderr.
     *
     * @param ex the usage error
     * @param args the command line
     * @return {@link CommandLine.ExitCode#USAGE} (2)
     */
    @Override
    public int handleParseException(ParameterException ex, String[] args) {
        CommandLine commandLine = ex.getCommandLine();
        PrintWriter err = commandLine.getErr();
        err.println("rxperf: " + FailureMessages.oneLine(String.valueOf(ex.getMessage())));
        err.println("Try '" + commandLine.getCommandSpec().qualifiedName() + " --help'");
        err.flush();
        return CommandLine.ExitCode.USAGE;
    }
}
