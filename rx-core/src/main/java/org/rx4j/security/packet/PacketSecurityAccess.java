// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.security.packet;

import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.rx4j.security.SecurityClass;

/**
 * The internal accessor from an exported {@link SecurityClass} handle to the {@link PacketSecurity} behind it
 * (docs/security.md "The security SPI"). An exported handle class keeps its packet work in a private field and
 * registers, in its static initializer, how to read it; a class is initialized before its first instance exists, so
 * every handle the engine can be given is already registered. This keeps Netty's buffers out of the exported
 * packages without making the handles' packet methods public.
 *
 * <p>Thread-safe: registrations happen during class initialization, look-ups on any event loop.
 */
public final class PacketSecurityAccess {
    private static final ConcurrentHashMap<Class<?>, Function<SecurityClass, PacketSecurity>> READERS =
            new ConcurrentHashMap<>();

    private PacketSecurityAccess() {
    }

    /**
     * Records how the engine reads the packet work of the handles of one final class.
     *
     * @param type the exported handle class (final, so that instances are of exactly this class)
     * @param reader gives a handle's packet work; never null for a handle of {@code type}
     * @param <T> the handle class
     * @throws IllegalStateException if {@code type} is already registered
     * @throws NullPointerException if an argument is null
     */
    public static <T extends SecurityClass> void register(Class<T> type, Function<T, PacketSecurity> reader) {
        Objects.requireNonNull(reader, "reader");
        Function<SecurityClass, PacketSecurity> read = c -> reader.apply(type.cast(c));
        if (READERS.putIfAbsent(Objects.requireNonNull(type, "type"), read) != null) {
            throw new IllegalStateException(type.getName() + " is already registered");
        }
    }

    /**
     * The packet work behind a handle: the handle itself when it is a {@link PacketSecurity} (a class written inside
     * the module), otherwise what its class registered.
     *
     * @param securityClass a handle
     * @return its packet work
     * @throws IllegalArgumentException if the handle's class is not one of this library's security classes (an
     *     application's own implementation of {@link SecurityClass})
     * @throws NullPointerException if securityClass is null
     */
    public static PacketSecurity of(SecurityClass securityClass) {
        if (Objects.requireNonNull(securityClass, "securityClass") instanceof PacketSecurity p) {
            return p;
        }
        Function<SecurityClass, PacketSecurity> reader = READERS.get(securityClass.getClass());
        if (reader == null) {
            throw new IllegalArgumentException(securityClass.getClass().getName()
                    + " is not one of rx4j's security classes (rxnull, rxkad): it has no packet work");
        }
        return reader.apply(securityClass);
    }
}
