// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

/**
 * An example service built with the rx-gen Maven plugin: a phonebook client and server from {@code phonebook.xg}.
 */
package org.rx4j.example.phonebook;
