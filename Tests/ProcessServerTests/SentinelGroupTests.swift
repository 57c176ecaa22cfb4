import Foundation
import Glibc
import NeonTestSupport
import Testing

/// The Sentinel harness itself (a master, a replica, three Sentinels),
/// proved with RESP alone: what the tests of `sentinel://` shards rely on.
@Suite("SentinelGroup: a master, a replica and three Sentinels on loopback", .serialized, .ownThreads)
struct SentinelGroupTests {
    @Test("a write on the master is on the replica; SIGKILL of the master: the Sentinels promote the replica within 15 s, it answers ROLE as master with the key; alone it refuses writes (NOREPLICAS) until the old master, started again, is made its replica")
    func failover() async throws {
        let group = try SentinelGroup(masterName: "neon1", sentinels: 3, replicas: 1)
        let ports = group.sentinels.map { "127.0.0.1:\($0.port)" }.joined(separator: ",")
        #expect(group.url == "sentinel://\(ports)/neon1")
        let master = try group.master()
        let replica = try #require(try group.replicas().first)
        #expect(master === group.nodes[0] && replica === group.nodes[1])
        #expect(try master.role() == "master" && replica.role() == "slave")
        #expect(try master.calls(["SET", "kept", "before"], ["WAIT", "1", "5000"]) == [.status("OK"), .integer(1)],
                "WAIT on the writing connection: the replica has the write")
        #expect(try replica.call("GET", "kept") == .bulk("before"))

        let killed = ContinuousClock.now
        let oldPort = try group.killMaster()
        #expect(await eventually(timeout: .seconds(30)) { (try? replica.role()) == "master" })
        let took = ContinuousClock.now - killed
        let newPort = try group.waitForFailover(from: oldPort, timeout: .seconds(30))
        print("Sentinel failover: SIGKILL of the master to the replica answering ROLE as master: \(took); "
              + "to every Sentinel naming it: \(ContinuousClock.now - killed)")
        #expect(oldPort == master.port && newPort == replica.port)
        #expect(took < .seconds(15))
        #expect(try replica.role() == "master")
        #expect(try replica.call("GET", "kept") == .bulk("before"))
        #expect(try replica.call("SET", "alone", "x").errorText?.hasPrefix("NOREPLICAS") == true)
        #expect(try replica.call("GET", "alone") == .bulk(nil), "a refused write changes nothing")

        try group.restart(master)
        try group.waitUntilReplica(master, timeout: .seconds(30))
        #expect(try master.role() == "slave")
        #expect(await eventually(timeout: .seconds(10)) {
            (try? replica.calls(["SET", "after", "y"], ["WAIT", "1", "5000"])) == [.status("OK"), .integer(1)]
        }, "the new master takes writes once its new replica acknowledges, and the replica has them")
        #expect(try master.call("GET", "after") == .bulk("y"))
        #expect(try master.call("GET", "kept") == .bulk("before"))
    }

    @Test("min-replicas-to-write 1: a replica paused past min-replicas-max-lag (2 s) makes the master refuse writes with NOREPLICAS until it resumes; a replica killed, too; a refused write changes nothing")
    func noReplicas() async throws {
        let group = try SentinelGroup(settings: .init(minReplicasMaxLag: 2))
        let master = try group.master()
        #expect(try master.call("SET", "k", "1") == .status("OK"))

        let paused = try group.pauseReplica()
        #expect(paused === group.nodes[1])
        #expect(await eventually(timeout: .seconds(10)) {
            (try? master.call("SET", "probe", "lagging"))?.errorText?.hasPrefix("NOREPLICAS") == true
        }, "a replica that stopped acknowledging for 2 s stops the writes")
        #expect(try master.call("SET", "k", "refused").errorText?.hasPrefix("NOREPLICAS") == true)
        #expect(try master.call("GET", "k") == .bulk("1"), "a refused write changes nothing")
        group.resumeReplica()
        #expect(await eventually(timeout: .seconds(10)) {
            (try? master.calls(["SET", "k", "2"], ["WAIT", "1", "5000"])) == [.status("OK"), .integer(1)]
        })

        let stopped = try group.stopReplica()
        #expect(!stopped.isRunning)
        #expect(await eventually(timeout: .seconds(5)) {
            (try? master.call("SET", "probe", "alone"))?.errorText?.hasPrefix("NOREPLICAS") == true
        })
        #expect(try master.call("SET", "k", "refused").errorText?.hasPrefix("NOREPLICAS") == true)
        #expect(try master.call("GET", "k") == .bulk("2"))
        #expect(try group.master() === master, "a replica's end is no failover")
    }

    @Test("one Sentinel of three killed: the other two still promote the replica when the master dies; started again, it names the new master; without min-replicas-to-write the new master takes writes alone")
    func oneSentinelDown() async throws {
        let group = try SentinelGroup(settings: .init(minReplicasToWrite: false))
        let replica = try #require(try group.replicas().first)
        group.killSentinel(0)
        #expect(!group.sentinels[0].isRunning)
        #expect(try group.currentMaster() == group.nodes[0].port, "a live Sentinel answers")

        let killed = ContinuousClock.now
        let newPort = try group.waitForFailover(from: group.killMaster(), timeout: .seconds(30))
        print("Sentinel failover with one Sentinel of three down, to both live ones naming the new master: \(ContinuousClock.now - killed)")
        #expect(newPort == replica.port)
        for sentinel in group.sentinels.dropFirst() {
            #expect(await eventually(timeout: .seconds(10)) {
                (try? sentinel.call("SENTINEL", "get-master-addr-by-name", "neon1"))?.texts == ["127.0.0.1", String(newPort)]
            }, "Sentinel \(sentinel.port) follows the new master")
        }
        #expect(try replica.call("SET", "alone", "x") == .status("OK"))

        try group.restart(group.sentinels[0])
        #expect(await eventually(timeout: .seconds(20)) {
            (try? group.sentinels[0].call("SENTINEL", "get-master-addr-by-name", "neon1"))?.texts == ["127.0.0.1", String(newPort)]
        }, "the restarted Sentinel learns the new master from the others")
    }
}
