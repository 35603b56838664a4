// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf;

import java.util.Iterator;
import java.util.Optional;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import org.rx4j.perf.transport.PerfTransportFactory;

/** Finds the Rx transport rxperf runs on. Tests pass their own; production uses {@link #serviceLoader()}. */
@FunctionalInterface
public interface TransportLookup {
    /**
     * Finds a factory.
     *
     * @return the factory, or empty if none is available
     * @throws RxperfFailure if a registered factory cannot be loaded
     */
    Optional<PerfTransportFactory> find();

    /**
     * The first {@link PerfTransportFactory} {@link ServiceLoader} finds on the class path.
     *
     * @return the lookup
     */
    static TransportLookup serviceLoader() {
        return () -> {
            try {
                Iterator<PerfTransportFactory> factories =
                        ServiceLoader.load(PerfTransportFactory.class, RxPerf.class.getClassLoader()).iterator();
                return factories.hasNext() ? Optional.of(factories.next()) : Optional.empty();
            } catch (ServiceConfigurationError e) {
                throw new RxperfFailure("no Rx transport available (" + e.getMessage() + ")", e);
            }
        };
    }
}
