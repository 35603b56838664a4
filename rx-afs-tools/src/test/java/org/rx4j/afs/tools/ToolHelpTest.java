// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.afs.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** Every command and subcommand answers --help with its own usage (exit 0), naming itself. */
class ToolHelpTest {
    @Test
    void everyAfsqSubcommandAndRxdebugAnswerHelp() {
        for (String[] args : new String[][] {{"--help"}, {"vl-entry", "--help"}, {"pt-id", "-h"},
                {"ls", "--help"}, {"cat", "-h"}, {"put", "--help"}, {"stat", "-h"}, {"mkdir", "--help"},
                {"rm", "-h"}, {"mkmount", "--help"}, {"mv", "--help"}, {"ln", "-h"}}) {
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            assertEquals(0, Afsq.run(args, new PrintWriter(out, true), new PrintWriter(err, true)), err.toString());
            String usage = "Usage: afsq" + (args.length == 2 ? " " + args[0] : "");
            assertTrue(out.toString().startsWith(usage), out.toString());
        }
        StringWriter out = new StringWriter();
        assertEquals(0, RxDebug.run(new String[] {"--help"}, new PrintWriter(out, true),
                new PrintWriter(new StringWriter(), true)));
        assertTrue(out.toString().startsWith("Usage: rxdebug"), out.toString());
        assertTrue(out.toString().contains("-servers"), out.toString());
    }
}
