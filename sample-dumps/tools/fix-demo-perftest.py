#!/usr/bin/env python3
"""Rewrites the demo dump's perftest overlay so each side prints what perftest really prints (structure taken from
the real captures in parsers/src/test/resources/real/perftest): servers start with the 'Waiting for client' banner,
both sides print their QP address lines, a read_lat server prints no result rows (read_lat.c returns before the
results), LIDs are the fabric's. The measured rows (and so the injected faults) are kept."""
import os, re

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
LIDS = {"node01": 1, "node02": 5, "node05": 11, "node06": 12, "node07": 13, "node08": 14, "node11": 17, "node12": 18}
DASH = "-" * 87 + "\n"
WAIT = "\n************************************\n* Waiting for client to connect... *\n************************************\n"


def rows(text):
    """The '#bytes' header and result rows of an existing file."""
    lines = text.splitlines(keepends=True)
    i = next(k for k, l in enumerate(lines) if l.strip().startswith("#bytes"))
    out = [lines[i]]
    for l in lines[i + 1:]:
        if l.startswith("---"):
            break
        out.append(l)
    return "".join(out)


def addr(lid, qpn, psn, rkey, vaddr, out=False):
    o = " OUT 0x10" if out else ""
    return f" LID 0x{lid:02x} QPN 0x{qpn:04x} PSN 0x{psn:06x}{o} RKey 0x{rkey:06x} VAddr 0x{vaddr:014x}\n"


def read_lat_banner(server):
    b = DASH + "                    RDMA_Read Latency Test\n"
    b += " Dual-port       : OFF\t\tDevice         : mlx5_0\n Number of qps   : 1\t\tTransport type : IB\n"
    b += " Connection type : RC\t\tUsing SRQ      : OFF\n PCIe relax order: ON\n ibv_wr* API     : OFF\n"
    if not server:
        b += " TX depth        : 1\n"
    b += " Mtu             : 4096[B]\n Link type       : IB\n Outstand reads  : 16\n rdma_cm QPs\t : OFF\n"
    b += " Data ex. method : Ethernet\n" + DASH
    return b


def main():
    d = os.path.join(ROOT, "overlay/demo-hdr16/perftest")
    for name in sorted(os.listdir(d)):
        m = re.match(r"(ib_\w+)__(node\d+)__(node\d+)\.(client|server)\.out$", name)
        if not m:
            continue
        test, client, server, side = m.groups()
        path = os.path.join(d, name)
        text = open(path, encoding="utf-8").read()
        me, peer = (client, server) if side == "client" else (server, client)
        local = addr(LIDS[me], 0x129 if side == "client" else 0x12a, 0x4e5a1b if side == "client" else 0x8a1c3d,
                     0x1fd4bc if side == "client" else 0x1fd5bd, 0x7f3c1c5d0000 if side == "client" else 0x7f2a9e7b0000,
                     test == "ib_read_lat")
        remote = addr(LIDS[peer], 0x12a if side == "client" else 0x129, 0x8a1c3d if side == "client" else 0x4e5a1b,
                      0x1fd5bd if side == "client" else 0x1fd4bc, 0x7f2a9e7b0000 if side == "client" else 0x7f3c1c5d0000,
                      test == "ib_read_lat")
        if test == "ib_read_lat":
            body = read_lat_banner(side == "server") + " local address:" + local + " remote address:" + remote + DASH
            if side == "client":
                body += rows(text) + DASH
            new = (WAIT if side == "server" else "") + body
        else:
            # bandwidth tests: keep the banner and rows, fix the LIDs, servers get the waiting banner
            new = re.sub(r" local address:.*\n", " local address:" + local.replace(" OUT 0x10", ""), text)
            new = re.sub(r" remote address:.*\n", " remote address:" + remote.replace(" OUT 0x10", ""), new)
            if side == "server" and not new.startswith("\n***"):
                new = WAIT + new
        with open(path, "w", encoding="utf-8") as f:
            f.write(new)
        dump = os.path.join(ROOT, "dumps/demo-hdr16/perftest", name)
        with open(dump, "w", encoding="utf-8") as f:
            f.write(new)


if __name__ == "__main__":
    main()
