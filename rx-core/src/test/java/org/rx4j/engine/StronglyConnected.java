// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The strongly connected components of a directed graph (Tarjan's algorithm, 1972), for {@link LayeringArchTest}'s
 * cycle rule: a component of more than one node is a cycle of classes.
 */
final class StronglyConnected {
    private final Map<String, Set<String>> graph;
    private final Map<String, Integer> index = new HashMap<>();
    private final Map<String, Integer> low = new HashMap<>();
    private final Deque<String> stack = new ArrayDeque<>();
    private final Set<String> onStack = new TreeSet<>();
    private final List<Set<String>> components = new ArrayList<>();
    private int next;

    private StronglyConnected(Map<String, Set<String>> graph) {
        this.graph = graph;
    }

    /**
     * @param graph each node's successors (a successor without an entry of its own has none)
     * @return every component, each a sorted set of its nodes, in the order Tarjan's algorithm finishes them
     */
    static List<Set<String>> components(Map<String, Set<String>> graph) {
        StronglyConnected s = new StronglyConnected(graph);
        for (String v : graph.keySet()) {
            if (!s.index.containsKey(v)) {
                s.visit(v);
            }
        }
        return s.components;
    }

    private void visit(String v) {
        index.put(v, next);
        low.put(v, next);
        next++;
        stack.push(v);
        onStack.add(v);
        for (String w : graph.getOrDefault(v, Set.of())) {
            if (!index.containsKey(w)) {
                visit(w);
                low.put(v, Math.min(low.get(v), low.get(w)));
            } else if (onStack.contains(w)) {
                low.put(v, Math.min(low.get(v), index.get(w)));
            }
        }
        if (low.get(v).equals(index.get(v))) {
            Set<String> component = new TreeSet<>();
            String w;
            do {
                w = stack.pop();
                onStack.remove(w);
                component.add(w);
            } while (!w.equals(v));
            components.add(component);
        }
    }
}
