// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

/*
 * afscp-ls: lists one AFS directory by fid with OpenAFS's own client library (libafscp, Debian's
 * libopenafs-dev), anonymously, one "vnode.unique name" line per entry, "." and ".." included. The reference
 * rx4j's directory reader is compared with (scripts/interop/afs-files.sh).
 *
 *   afscp-ls CELL VOLUME VNODE UNIQUE
 */
#include <afsconfig.h>
#include <afs/param.h>
#include <stdio.h>
#include <stdlib.h>
#include <rx/xdr.h>
#include <afs/afscp.h>

/* libafsrpc exports no afs_xdr_u_short, which libafscp's VL stubs use (as in scripts/rxgen/ks_server.c) */
bool_t
afs_xdr_u_short(XDR *xdrs, u_short *p)
{
    afs_uint32 v = *p;

    if (!xdr_afs_uint32(xdrs, &v))
        return FALSE;
    if (xdrs->x_op == XDR_DECODE)
        *p = (u_short) v;
    return TRUE;
}

int
main(int argc, char **argv)
{
    struct afscp_cell *cell;
    struct afscp_venusfid *fid;
    struct afscp_dirstream *dir;
    struct afscp_dirent *entry;

    if (argc != 5) {
        fprintf(stderr, "usage: afscp-ls CELL VOLUME VNODE UNIQUE\n");
        return 2;
    }
    afscp_AnonymousAuth(1);
    if (afscp_Init(argv[1]) != 0) {
        fprintf(stderr, "afscp-ls: cannot initialise libafscp for %s\n", argv[1]);
        return 1;
    }
    cell = afscp_CellByName(argv[1], NULL);
    if (cell == NULL) {
        fprintf(stderr, "afscp-ls: no cell %s\n", argv[1]);
        return 1;
    }
    fid = afscp_MakeFid(cell, strtoul(argv[2], NULL, 10), strtoul(argv[3], NULL, 10),
                        strtoul(argv[4], NULL, 10));
    dir = fid != NULL ? afscp_OpenDir(fid) : NULL;
    if (dir == NULL) {
        fprintf(stderr, "afscp-ls: cannot open directory %s.%s.%s (error %d)\n", argv[2], argv[3], argv[4],
                afscp_errno);
        return 1;
    }
    while ((entry = afscp_ReadDir(dir)) != NULL)
        printf("%u.%u %s\n", entry->vnode, entry->unique, entry->name);
    afscp_CloseDir(dir);
    return 0;
}
