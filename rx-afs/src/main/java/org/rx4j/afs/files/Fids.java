// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.afs.files;

import org.rx4j.afs.fs.AFSFid;

/** File ids in the text form OpenAFS tools use ({@code volume.vnode.unique}, unsigned decimal). */
public final class Fids {
    private Fids() {
    }

    /**
     * @param fid a fid
     * @return {@code volume.vnode.unique}
     */
    public static String format(AFSFid fid) {
        return Integer.toUnsignedString(fid.volume()) + "." + Integer.toUnsignedString(fid.vnode()) + "."
                + Integer.toUnsignedString(fid.unique());
    }

    /**
     * @param text {@code volume.vnode.unique}, each an unsigned 32-bit decimal
     * @return the fid
     * @throws IllegalArgumentException if the text is not three such numbers
     */
    public static AFSFid parse(String text) {
        String[] p = text.split("\\.", -1);
        if (p.length != 3) {
            throw new IllegalArgumentException("not a fid (volume.vnode.unique): " + text);
        }
        try {
            return new AFSFid(Integer.parseUnsignedInt(p[0]), Integer.parseUnsignedInt(p[1]),
                    Integer.parseUnsignedInt(p[2]));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a fid (volume.vnode.unique): " + text, e);
        }
    }
}
