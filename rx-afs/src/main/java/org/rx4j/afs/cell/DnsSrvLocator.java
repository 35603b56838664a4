// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.afs.cell;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Hashtable;
import java.util.List;
import java.util.Locale;
import javax.naming.Context;
import javax.naming.NameNotFoundException;
import javax.naming.NamingEnumeration;
import javax.naming.NamingException;
import javax.naming.directory.Attribute;
import javax.naming.directory.Attributes;
import javax.naming.directory.DirContext;
import javax.naming.directory.InitialDirContext;

/**
 * Finds a cell's database servers through DNS SRV records (RFC 5864: {@code _afs3-vlserver._udp.CELL},
 * {@code _afs3-prserver._udp.CELL}; record data {@code priority weight port target}, RFC 2782), using the JDK's
 * JNDI DNS provider ({@code com.sun.jndi.dns}) against a configurable DNS server. Each target's IPv4 addresses
 * are looked up (A records) on the same server.
 *
 * <p>Order: priority ascending, then weight descending, then target name — deterministic, where RFC 2782 asks
 * for a weighted random choice among equal priorities (a caller that wants spreading can shuffle equal-priority
 * runs itself). A target of {@code .} means "the service is not offered" and yields no server.
 */
public final class DnsSrvLocator {
    private final String providerUrl;
    private final Duration timeout;

    /**
     * @param dnsServer the DNS server as {@code host:port} (e.g. {@code 127.0.0.1:5353}), or null for the
     *     system's resolvers
     * @param timeout the initial query timeout (JNDI doubles it on each of its retries), at least 1 ms
     * @throws IllegalArgumentException if the timeout is shorter than 1 ms
     */
    public DnsSrvLocator(String dnsServer, Duration timeout) {
        if (timeout.toMillis() < 1) {
            throw new IllegalArgumentException("timeout below 1 ms: " + timeout);
        }
        this.providerUrl = dnsServer == null ? "dns:" : "dns://" + dnsServer;
        this.timeout = timeout;
    }

    /** One SRV record's data. */
    record Srv(int priority, int weight, int port, String target) {
    }

    /**
     * @param cell the cell name
     * @param service the service to look up
     * @return the servers' addresses in the order above; empty when the name has no SRV records
     * @throws IOException when the DNS server cannot be asked or answers with something that is not SRV data
     */
    public List<InetSocketAddress> servers(String cell, AfsService service) throws IOException {
        String name = service.srvPrefix() + "." + cell.toLowerCase(Locale.ROOT);
        DirContext dns = context();
        try {
            List<Srv> records = new ArrayList<>();
            for (String data : values(dns, name, "SRV")) {
                records.add(parse(data, name));
            }
            records.sort(Comparator.comparingInt(Srv::priority).thenComparing(Srv::weight, Comparator.reverseOrder())
                    .thenComparing(Srv::target));
            List<InetSocketAddress> out = new ArrayList<>();
            for (Srv srv : records) {
                if (srv.target().equals(".") || srv.target().isEmpty()) {
                    continue;
                }
                for (String a : values(dns, srv.target(), "A")) {
                    out.add(new InetSocketAddress(InetAddress.getByName(a), srv.port()));
                }
            }
            return out;
        } catch (NamingException e) {
            throw new IOException("DNS lookup of " + name + " at " + providerUrl + " failed: " + e, e);
        } finally {
            try {
                dns.close();
            } catch (NamingException e) {
                // closing a DNS context releases nothing that matters here
            }
        }
    }

    private DirContext context() throws IOException {
        Hashtable<String, String> env = new Hashtable<>();
        env.put(Context.INITIAL_CONTEXT_FACTORY, "com.sun.jndi.dns.DnsContextFactory");
        env.put(Context.PROVIDER_URL, providerUrl);
        env.put("com.sun.jndi.dns.timeout.initial", Long.toString(timeout.toMillis()));
        env.put("com.sun.jndi.dns.timeout.retries", "2");
        try {
            return new InitialDirContext(env);
        } catch (NamingException e) {
            throw new IOException("no DNS context for " + providerUrl + ": " + e, e);
        }
    }

    private static List<String> values(DirContext dns, String name, String type) throws NamingException {
        List<String> out = new ArrayList<>();
        Attributes attributes;
        try {
            attributes = dns.getAttributes(name, new String[] {type});
        } catch (NameNotFoundException e) {
            return out;
        }
        Attribute attribute = attributes.get(type);
        if (attribute == null) {
            return out;
        }
        NamingEnumeration<?> all = attribute.getAll();
        while (all.hasMore()) {
            out.add(all.next().toString());
        }
        return out;
    }

    /** "priority weight port target" (RFC 2782); the target's final dot is dropped. */
    static Srv parse(String data, String name) throws IOException {
        String[] f = data.strip().split("\\s+");
        try {
            if (f.length != 4) {
                throw new NumberFormatException("4 fields expected");
            }
            String target = f[3].length() > 1 && f[3].endsWith(".") ? f[3].substring(0, f[3].length() - 1) : f[3];
            return new Srv(Integer.parseInt(f[0]), Integer.parseInt(f[1]), Integer.parseInt(f[2]), target);
        } catch (NumberFormatException e) {
            throw new IOException("SRV record of " + name + " is not 'priority weight port target': '" + data + "'", e);
        }
    }
}
