// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code rxperf loopback}: starts a server in this process (on {@code -s}, default 127.0.0.1, an ephemeral port
 * unless {@code -p} is given, default minprocs/maxprocs) and runs the client flags against it. Endpoint flags apply
 * to both sides; {@code --verify} checks payload on both sides.
 */
@Command(name = "loopback", sortOptions = false, versionProvider = VersionProvider.class,
        description = {"Start an rxperf server in this process on 127.0.0.1 (ephemeral port) and run the client "
                + "flags against it.", "-s and -p choose the server's bind address and port (-p 0..65535, "
                + "default: ephemeral); endpoint flags and --verify apply to both sides."})
final class LoopbackCommand implements Callable<Integer> {
    @ParentCommand
    RxPerf app;

    @Spec
    CommandSpec spec;

    @Mixin
    ClientFlags client;

    @Mixin
    EndpointFlags endpoint;

    @Mixin
    SecurityFlags security;

    @Mixin
    HelpFlags help;

    @Override
    public Integer call() throws Exception {
        boolean portGiven = spec.commandLine().getParseResult().hasMatchedOption("-p");
        return new ClientRun(app, spec.commandLine(), client, endpoint, security).runLoopback(portGiven);
    }
}
