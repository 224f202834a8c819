#!/usr/bin/env python3
"""Assembles sample-dumps/dumps/real-captures from the verbatim real captures in
parsers/src/test/resources/real (see SOURCES.md there). Every .out is a capture byte for byte; every .meta records
what the collector would have recorded, plus `source:` naming where the capture was published. Nothing is invented:
inputs no capture exists for are simply absent (the loader reports them as missing)."""
import os, shutil, sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
REAL = os.path.join(REPO, "parsers/src/test/resources/real")
OUT = os.path.join(REPO, "sample-dumps/dumps/real-captures")

sources = {}
for line in open(os.path.join(REAL, "SOURCES.md"), encoding="utf-8"):
    if line.startswith("- `"):
        name = line[3:line.index("`", 3)]
        sources[name] = line.split("|")[1].strip()

# (dump path without .out, host, command line as the collector runs it, capture, peer)
NODE = [
    ("cx3-fdr10", "ibstat", "ibstat", "ibstat/cn-blog-cx3-fdr10-active.txt"),
    ("a100-gpud", "ibstat", "ibstat", "ibstat/gpud-a100-mt4126-eth-and-ib.txt"),
    ("h100-gpud", "ibstat", "ibstat", "ibstat/gpud-h100-cx7-ndr-active.txt"),
    ("storage02", "ibstat", "ibstat", "ibstat/storage02-cx3-fdr-port1-down-port2-active.txt"),
    ("ompi-cx3", "ibstatus", "ibstatus", "ibstatus/ompi-users-cx3-fdr-port1-down.txt"),
    ("ompi-cx3", "smpquery-nodeinfo", "smpquery --Ca mlx4_0 --Port 1 NodeInfo 4", "smpquery-nodeinfo/ompi-users-cx3-fdr-lid4.txt"),
    ("node24", "smpquery-portinfo", "ibportstate 6 1 speed 7 width 1 espeed 30 reset", "smpquery-portinfo/ibportstate-cx3-fdr-1x-reset.txt"),
    ("head", "ulimit-l", "ulimit -l", "ulimit-l/ompi-users-head-unlimited.txt"),
    ("bf3-doca", "ofed_info", "ofed_info -s", "ofed_info/bf3-doca-ofed-23.07.txt"),
    ("docker-mofed", "ofed_info", "ofed_info -s", "ofed_info/docker-mofed-4.6.txt"),
    ("brev-a100", "mlxlink", "mlxlink -d /dev/mst/mt4123_pciconf0 --show_ber_monitor", "mlxlink/brev-a100-cx6-hdr100-2x-basic.txt"),
    ("bluefield-1", "mlxlink", "mlxlink -d /dev/mst/mt41692_pciconf0 -p 1 -m -c", "mlxlink/sigcomm26-bf3-100g-eth-m-c.txt"),
    ("cn-cx6", "mlxlink-pcie", "mlxlink -d /dev/mst/mt4123_pciconf0 --port_type PCIE -e", "mlxlink-pcie/cn-blog-cx6-gen1-x4-slot.txt"),
    ("xdp-host", "ethtool-S", "ethtool -S (interface not recorded)", "ethtool-S/bpf-list-mlx5-xdp-5.15-nonzero.txt"),
]
FABRIC = [
    ("ibdiagnet2.ibnetdiscover", "ibdiagnet", "ibnetdiscover/gary-minghuili-ndr-quantum2-ibdiagnet2-ibnetdiscover.txt"),
    ("ibdiagnet2.log", "ibdiagnet", "ibdiagnet2.log/gary-minghuili-ndr-quantum2-full.txt"),
    ("ibdiagnet2.db_csv", "ibdiagnet", "ibdiagnet2.db_csv/gary-minghuili-ndr-quantum2-full.txt"),
    ("ibdiagnet2.pm", "ibdiagnet", "ibdiagnet2.pm/gary-minghuili-ndr-quantum2-full.txt"),
    ("ibdiagnet2.sm", "ibdiagnet", "ibdiagnet2.sm/gary-minghuili-ndr-quantum2-full.txt"),
    ("ibdiagnet2.pkey", "ibdiagnet", "ibdiagnet2.pkey/gary-minghuili-ndr-quantum2-full.txt"),
    ("ibdiagnet2.cables", "ibdiagnet", "ibdiagnet2.cables/gary-minghuili-ndr-quantum2-get-cable-info.txt"),
    ("ibdiagnet2.net_dump", "ibdiagnet", "ibdiagnet2.net_dump/gary-minghuili-ndr-quantum2-full.txt"),
    ("ibdiagnet2.net_dump_ext", "ibdiagnet", "ibdiagnet2.net_dump_ext/gary-minghuili-ndr-quantum2-get-phy-info.txt"),
    ("iblinkinfo", "iblinkinfo", "iblinkinfo/cn-notes-qdr-infiniscale-iv.txt"),
    ("ibqueryerrors", "ibqueryerrors", "ibqueryerrors/rdma-list-sx6036-fdr-mlx4.txt"),
    ("perfquery", "perfquery -l -x", "perfquery/treydock-x-edr-ca.txt"),
    ("sminfo", "sminfo", "sminfo/kube-cx3-qdr-master-lid4.txt"),
]
# (test id, client host, server host, test, client command, client capture, server command, server capture)
PERF = [
    ("ib_write_bw__node-0__node-1", "node-0", "node-1", "ib_write_bw", "ib_write_bw -d mlx5_0 -a node-1",
     "perftest/cx6-hdr-ib-write-bw-a-mbsec-client.txt", "ib_write_bw -d mlx5_0 -a", "perftest/cx6-hdr-ib-write-bw-a-mbsec-server.txt"),
    ("ib_write_lat__node-0__node-1", "node-0", "node-1", "ib_write_lat", "ib_write_lat -d mlx5_0 -a node-1",
     "perftest/cx6-hdr-ib-write-lat-a-client.txt", None, None),
    ("ib_send_bw__kube01__kube02", "kube01", "kube02", "ib_send_bw", "ib_send_bw -d mlx5_0 -i 1 -F --report_gbits kube02",
     "perftest/kube01-roce-send-bw-gbits.txt", None, None),
    ("ib_write_bw__ainic-a__ainic-b", "ainic-a", "ainic-b", "ib_write_bw", "ib_write_bw -d ionic_1 -x 1 -b -q 4 -F -a -n 5000 --report_gbits ainic-b",
     "perftest/amd-ainic-roce-write-bw-bidir-a-client.txt", "ib_write_bw -d ionic_7 -x 1 -b -q 4 -F -a -n 5000 --report_gbits",
     "perftest/amd-ainic-roce-write-bw-bidir-a-server.txt"),
]


def meta(path, fields):
    with open(path, "w", encoding="utf-8") as f:
        for k, v in fields:
            f.write(f"{k}: {v}\n")


def copy(capture, dest):
    shutil.copyfile(os.path.join(REAL, capture), dest)


def main():
    if os.path.isdir(OUT):
        shutil.rmtree(OUT)
    hosts = []
    for host, name, cmd, cap in NODE:
        d = os.path.join(OUT, "nodes", host)
        os.makedirs(d, exist_ok=True)
        if host not in hosts:
            hosts.append(host)
        copy(cap, os.path.join(d, name + ".out"))
        meta(os.path.join(d, name + ".meta"), [("name", name), ("host", host), ("command", cmd), ("status", "ok"),
             ("exit", "0"), ("duration_ms", "0"), ("started", ""), ("source", sources[cap] + " (" + cap + ")")])
    d = os.path.join(OUT, "fabric")
    os.makedirs(d, exist_ok=True)
    for name, cmd, cap in FABRIC:
        copy(cap, os.path.join(d, name + ".out"))
        meta(os.path.join(d, name + ".meta"), [("name", name), ("host", "fabric"), ("command", cmd), ("status", "ok"),
             ("exit", "0"), ("duration_ms", "0"), ("started", ""), ("source", sources[cap] + " (" + cap + ")")])
    d = os.path.join(OUT, "perftest")
    os.makedirs(d, exist_ok=True)
    for tid, client, server, test, ccmd, ccap, scmd, scap in PERF:
        for side, host, peer, cmd, cap in (("client", client, server, ccmd, ccap), ("server", server, client, scmd, scap)):
            if cap is None:
                continue
            copy(cap, os.path.join(d, f"{tid}.{side}.out"))
            meta(os.path.join(d, f"{tid}.{side}.meta"), [("name", test), ("host", host), ("peer", peer),
                 ("command", cmd), ("status", "ok"), ("exit", "0"), ("duration_ms", "0"), ("started", ""),
                 ("source", sources[cap] + " (" + cap + ")")])
    with open(os.path.join(OUT, "manifest.txt"), "w", encoding="utf-8") as f:
        f.write("# ibaccept dump manifest\n# assembled from verbatim real captures by sample-dumps/tools/build-real-captures.py\n")
        f.write("format: 1\ncluster: real-captures\ncreated: \ncollector: assembled from real captures (no collector run)\n")
        f.write("fabric_node: \nnodes: " + " ".join(hosts) + "\n")


if __name__ == "__main__":
    sys.exit(main())
