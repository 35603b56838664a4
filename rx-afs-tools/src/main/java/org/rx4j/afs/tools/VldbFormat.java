// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.afs.tools;

import java.util.ArrayList;
import java.util.List;
import org.rx4j.afs.vl.Nvldbentry;
import org.rx4j.afs.vl.VlConstants;

/**
 * A VLDB entry in the shape {@code vos listvldb -noresolve} prints one (without its trailing blanks): the name, the
 * volume ids of the types that exist, the number of sites, and one line per site.
 */
final class VldbFormat {
    private VldbFormat() {
    }

    /**
     * @param e the entry
     * @return the lines, without line ends or trailing blanks
     */
    static List<String> lines(Nvldbentry e) {
        List<String> out = new ArrayList<>();
        out.add(e.name());
        StringBuilder ids = new StringBuilder();
        if ((e.flags() & VlConstants.VLF_RWEXISTS) != 0) {
            ids.append("    RWrite: ").append(Integer.toUnsignedString(e.volumeId().get(0)));
        }
        if ((e.flags() & VlConstants.VLF_ROEXISTS) != 0) {
            ids.append("    ROnly: ").append(Integer.toUnsignedString(e.volumeId().get(1)));
        }
        if ((e.flags() & VlConstants.VLF_BACKEXISTS) != 0) {
            ids.append("    Backup: ").append(Integer.toUnsignedString(e.volumeId().get(2)));
        }
        out.add(ids.toString());
        out.add("    number of sites -> " + e.nServers());
        for (int i = 0; i < e.nServers(); i++) {
            out.add("       server " + dotted(e.serverNumber().get(i)) + " partition "
                    + partition(e.serverPartition().get(i)) + " " + siteType(e.serverFlags().get(i)) + " Site");
        }
        return out;
    }

    /** A host-order IPv4 address as a dotted quad. */
    static String dotted(int a) {
        return (a >>> 24) + "." + (a >>> 16 & 0xff) + "." + (a >>> 8 & 0xff) + "." + (a & 0xff);
    }

    /** Partition number to name: 0..25 are /vicepa../vicepz, then two letters (/vicepaa = 26). */
    static String partition(int p) {
        if (p < 26) {
            return "/vicep" + (char) ('a' + p);
        }
        return "/vicep" + (char) ('a' + p / 26 - 1) + (char) ('a' + p % 26);
    }

    private static String siteType(int flags) {
        if ((flags & VlConstants.VLSF_RWVOL) != 0) {
            return "RW";
        }
        if ((flags & VlConstants.VLSF_ROVOL) != 0) {
            return "RO";
        }
        if ((flags & VlConstants.VLSF_BACKVOL) != 0) {
            return "BACK";
        }
        return "?";
    }
}
