// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.metrics;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import javax.management.Attribute;
import javax.management.AttributeList;
import javax.management.AttributeNotFoundException;
import javax.management.ImmutableDescriptor;
import javax.management.JMException;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanException;
import javax.management.MBeanInfo;
import javax.management.ReflectionException;
import javax.management.StandardMBean;
import javax.management.openmbean.SimpleType;
import org.rx4j.counters.RxCounter;
import org.rx4j.rpc.RxEndpoint;
import org.rx4j.rpc.stats.CounterStats;
import org.rx4j.rpc.stats.EndpointStats;
import org.rx4j.rpc.stats.ProcedureMetrics;
import org.rx4j.rpc.stats.RxEndpointMXBean;

/**
 * {@link RxEndpointMXBean} over a snapshot supplier (the endpoint's {@link RxEndpoint#statistics()}), plus one
 * read-only {@code long} attribute per {@link RxCounter}, named by its {@link RxCounter#key()}, and per label of a
 * labelled counter ({@code key.LABEL}, e.g. {@code packetsSent.DATA}): a loop over the enum, so a counter added
 * there is an attribute here. Each attribute's descriptor carries JMX's standard {@code units} and
 * {@code metricType} ({@code counter} or {@code gauge}) fields; its description is the counter's.
 */
public final class EndpointMXBean extends StandardMBean implements RxEndpointMXBean {
    private final Supplier<EndpointStats> stats;
    private final Supplier<List<ProcedureMetrics>> procedures;
    /** Counter attributes by name: the counter, and the label's name or null for its total. */
    private final Map<String, Map.Entry<RxCounter, String>> counterAttributes = new LinkedHashMap<>();
    private final MBeanInfo info;

    /**
     * @param stats takes a fresh snapshot
     * @param procedures takes a fresh per-procedure snapshot ({@link RxEndpoint#metrics()})
     */
    public EndpointMXBean(Supplier<EndpointStats> stats, Supplier<List<ProcedureMetrics>> procedures) {
        super(RxEndpointMXBean.class, true);
        this.stats = stats;
        this.procedures = procedures;
        MBeanInfo base = super.getMBeanInfo();
        List<MBeanAttributeInfo> attrs = new ArrayList<>(Arrays.asList(base.getAttributes()));
        for (RxCounter c : RxCounter.values()) {
            attrs.add(attribute(c.key(), c, c.description()));
            counterAttributes.put(c.key(), Map.entry(c, ""));
            for (String label : c.labels()) {
                String name = c.key() + "." + label;
                attrs.add(attribute(name, c, c.description() + ": " + label));
                counterAttributes.put(name, Map.entry(c, label));
            }
        }
        this.info = new MBeanInfo(base.getClassName(), base.getDescription(),
                attrs.toArray(new MBeanAttributeInfo[0]), base.getConstructors(), base.getOperations(),
                base.getNotifications(), base.getDescriptor());
    }

    private static MBeanAttributeInfo attribute(String name, RxCounter c, String description) {
        String metricType = c.kind() == RxCounter.Kind.COUNTER ? "counter" : "gauge";
        // As an MXBean's long attribute: type "long", open type LONG; plus JMX's standard units and metricType.
        return new MBeanAttributeInfo(name, "long", description, true, false, false,
                new ImmutableDescriptor(new String[] {"units", "metricType", "openType", "originalType"},
                        new Object[] {c.unit().label(), metricType, SimpleType.LONG, "long"}));
    }

    @Override
    public MBeanInfo getMBeanInfo() {
        return info;
    }

    @Override
    public Object getAttribute(String name) throws AttributeNotFoundException, MBeanException, ReflectionException {
        Map.Entry<RxCounter, String> c = counterAttributes.get(name);
        return c == null ? super.getAttribute(name) : value(stats.get().totals(), c);
    }

    @Override
    public AttributeList getAttributes(String[] names) {
        CounterStats totals = null;
        AttributeList list = new AttributeList();
        for (String name : names) {
            Map.Entry<RxCounter, String> c = counterAttributes.get(name);
            try {
                if (c != null && totals == null) {
                    totals = stats.get().totals(); // one snapshot for every counter asked together
                }
                list.add(new Attribute(name, c == null ? super.getAttribute(name) : value(totals, c)));
            } catch (JMException | RuntimeException e) {
                // as StandardMBean: an attribute that cannot be read is left out of the list
            }
        }
        return list;
    }

    private static long value(CounterStats totals, Map.Entry<RxCounter, String> c) {
        return c.getValue().isEmpty() ? totals.get(c.getKey()) : totals.byLabel(c.getKey()).getOrDefault(c.getValue(), 0L);
    }

    @Override
    public String getLocalAddress() {
        return String.valueOf(stats.get().localAddress());
    }

    @Override
    public int getConnections() {
        return stats.get().connections().size();
    }

    @Override
    public int getPeers() {
        return stats.get().peers().size();
    }

    @Override
    public Map<String, Long> getProcedureMetrics() {
        Map<String, Long> m = new LinkedHashMap<>();
        for (ProcedureMetrics p : procedures.get()) {
            m.putAll(p.toMap());
        }
        return m;
    }
}
