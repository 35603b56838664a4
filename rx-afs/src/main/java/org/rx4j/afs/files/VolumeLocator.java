// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.afs.files;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.rx4j.afs.ubik.UbikClient;
import org.rx4j.afs.vl.Nvldbentry;
import org.rx4j.afs.vl.VlClient;
import org.rx4j.afs.vl.VlConstants;

/**
 * Volume names and ids to fileserver addresses through the cell's vlservers (VL_GetEntryByNameN,
 * VL_GetEntryByIDN over the multi-server {@link UbikClient}), cached until {@link #forget}: a volume's sites change
 * only when an administrator moves or releases it, and the fileserver says so (VNOVOL, VMOVED), which makes the
 * file system forget and ask again. Source for the entry's fields: vldbint.h (rx-afs's vl.xg); site flags
 * VLSF_RWVOL/VLSF_ROVOL select the sites of each kind; volumeId[0..2] are the read-write, read-only and backup ids.
 */
public final class VolumeLocator {
    /** The fileserver's UDP port. */
    public static final int FILESERVER_PORT = 7000;
    private static final String READONLY_SUFFIX = ".readonly";
    private static final String BACKUP_SUFFIX = ".backup";

    private final UbikClient<VlClient> vl;
    private final Duration deadline;
    private final int port;
    private final Map<Object, VolumeSites> cache = new ConcurrentHashMap<>();

    /**
     * @param vl the cell's vlservers (not closed by this class)
     * @param deadline each VL call's deadline
     */
    public VolumeLocator(UbikClient<VlClient> vl, Duration deadline) {
        this(vl, deadline, FILESERVER_PORT);
    }

    /**
     * @param vl the cell's vlservers (not closed by this class)
     * @param deadline each VL call's deadline
     * @param fileServerPort the fileservers' UDP port (the VLDB records addresses only; 7000 in every real cell)
     */
    public VolumeLocator(UbikClient<VlClient> vl, Duration deadline, int fileServerPort) {
        this.vl = vl;
        this.deadline = deadline;
        this.port = fileServerPort;
    }

    /**
     * A volume by name: {@code NAME} (read-write), {@code NAME.readonly} or {@code NAME.backup}; with
     * {@code preferReadOnly} a plain name gives the read-only clone when the VLDB lists one (a cache manager's
     * rule for {@code #} mount points reached through read-only volumes, and for root.cell).
     *
     * @param name the volume's name
     * @param preferReadOnly whether a read-only clone is taken when there is one
     * @return the sites
     * @throws IOException the vlservers' error (VL_NOENT for an unknown volume) or no vlserver answered
     */
    public VolumeSites byName(String name, boolean preferReadOnly) throws IOException {
        Object key = (preferReadOnly ? "ro:" : "rw:") + name;
        VolumeSites s = cache.get(key);
        if (s != null) {
            return s;
        }
        String base = name;
        int kind = preferReadOnly ? -1 : 0;
        if (name.endsWith(READONLY_SUFFIX)) {
            base = name.substring(0, name.length() - READONLY_SUFFIX.length());
            kind = 1;
        } else if (name.endsWith(BACKUP_SUFFIX)) {
            base = name.substring(0, name.length() - BACKUP_SUFFIX.length());
            kind = 2;
        }
        String asked = base;
        Nvldbentry e = vl.call(c -> c.getEntryByNameN(asked, deadline));
        if (kind == -1) {
            kind = (e.flags() & VlConstants.VLF_ROEXISTS) != 0 && !servers(e, VlConstants.VLSF_ROVOL).isEmpty() ? 1 : 0;
        }
        s = sites(e, kind);
        cache.put(key, s);
        cache.put(s.id(), s);
        return s;
    }

    /**
     * A volume by id.
     *
     * @param id a read-write, read-only or backup volume id
     * @return the sites
     * @throws IOException the vlservers' error (VL_NOENT) or no vlserver answered
     */
    public VolumeSites byId(int id) throws IOException {
        VolumeSites s = cache.get(id);
        if (s != null) {
            return s;
        }
        Nvldbentry e = vl.call(c -> c.getEntryByIDN(id, -1, deadline));
        int kind = e.volumeId().get(1) == id ? 1 : e.volumeId().get(2) == id && id != e.volumeId().get(0) ? 2 : 0;
        s = sites(e, kind);
        cache.put(id, s);
        return s;
    }

    /**
     * Forgets what is known of a volume (the fileserver said VNOVOL or VMOVED).
     *
     * @param id the volume id
     */
    public void forget(int id) {
        cache.values().removeIf(s -> s.id() == id);
        cache.remove(id);
    }

    private VolumeSites sites(Nvldbentry e, int kind) throws UnknownHostException {
        int flag = kind == 1 ? VlConstants.VLSF_ROVOL : VlConstants.VLSF_RWVOL;
        int ro = (e.flags() & VlConstants.VLF_ROEXISTS) != 0 ? e.volumeId().get(1) : 0;
        return new VolumeSites(e.name(), e.volumeId().get(kind), kind == 1, servers(e, flag), ro);
    }

    private List<InetSocketAddress> servers(Nvldbentry e, int flag) throws UnknownHostException {
        List<InetSocketAddress> out = new ArrayList<>();
        for (int i = 0; i < e.nServers(); i++) {
            if ((e.serverFlags().get(i) & flag) != 0) {
                int a = e.serverNumber().get(i);
                byte[] b = {(byte) (a >>> 24), (byte) (a >>> 16), (byte) (a >>> 8), (byte) a};
                out.add(new InetSocketAddress(InetAddress.getByAddress(b), port));
            }
        }
        return out;
    }
}
