// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code rxperf client}: runs calls against an rxperf server and prints OpenAFS's result line. */
@Command(name = "client", sortOptions = false, versionProvider = VersionProvider.class,
        description = "Run send, recv, rpc or file calls against an rxperf server (service 147).")
final class ClientCommand implements Callable<Integer> {
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
        return new ClientRun(app, spec.commandLine(), client, endpoint, security).runClient();
    }
}
