import NeonCore
import Testing

@Suite struct ConvergenceTests {
    @Test(
        "Clients editing concurrently over a jittery network converge and keep every undeleted insert",
        arguments: [(seed: 0x00C0_FFEE, clients: 3), (seed: 0x0BAD_5EED, clients: 5)] as [(seed: UInt64, clients: Int)]
    )
    func randomizedConvergence(seed: UInt64, clients: Int) throws {
        var simulation = ConvergenceSimulation(seed: seed, clients: clients, text: "Hello, 世界 👋")
        for _ in 0..<4000 {
            try simulation.step()
        }
        try simulation.drain()

        let server = simulation.server
        let serverScalars = Array(server.text.unicodeScalars)
        for (index, peer) in simulation.peers.enumerated() {
            #expect(
                peer.text.unicodeScalars.elementsEqual(serverScalars),
                "peer \(index) diverged: \(peer.text.debugDescription) vs \(server.text.debugDescription)"
            )
            #expect(peer.client == OTClient(revision: server.revision))
        }

        let intact = ConvergenceSimulation.intactTokens(in: serverScalars)
        let untouched = simulation.tokens.keys.filter { !simulation.touched.contains($0) }
        for id in untouched {
            let copies = intact.filter { $0.id == id }
            #expect(copies.count == 1, "token \(id) appears \(copies.count) times")
            #expect(copies.first.map { Array(serverScalars[$0.range]) } == simulation.tokens[id])
        }

        #expect(simulation.lateEdits > 200, "too little concurrency to mean anything")
        #expect(simulation.bufferedEdits > 200, "clients rarely buffered edits")
        #expect(untouched.count > 10, "too few surviving inserts to mean anything")
    }
}
