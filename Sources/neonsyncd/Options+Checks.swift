import NeonCore
import NeonServer

/// The checks between neonsyncd's flags, made once every flag is read:
/// flags that go together, and flags that need another.
extension Options {
    func checkTLSPair() throws(NeonError) {
        guard (tlsCertificate == nil) != (tlsKey == nil) else { return }
        let missing = tlsCertificate == nil ? "--tls-cert" : "--tls-key"
        throw NeonError.usage("--tls-cert and --tls-key go together: add \(missing) to serve wss://, or drop the other to serve ws://")
    }

    /// A host others can reach needs a secret, or --insecure-open.
    func checkOpenHost() throws(NeonError) {
        if secretFile == nil, !insecureOpen, !Self.isLoopback(host) {
            throw NeonError.usage("--host \(host) would let anyone who reaches it join any room; give --secret-file FILE to require room tokens, or --insecure-open to serve it open anyway")
        }
    }

    /// The cluster's flags need --redis.
    func checkClusterFlags() throws(NeonError) {
        if redis == nil, let flag = node != nil ? "--node"
            : redisPasswordFile != nil ? "--redis-password-file"
            : snapshotEvery != 1000 ? "--snapshot-every"
            : nodeTimeout != 6 ? "--node-timeout"
            : redisReplicas != nil ? "--redis-replicas"
            : redisReplicaTimeout != 1000 ? "--redis-replica-timeout" : nil {
            throw NeonError.usage("\(flag) only applies to a cluster node; add --redis redis://HOST:PORT to join one, or drop \(flag)")
        }
    }

    /// --reuse-port needs --redis, a fixed port, an IP address and a node name.
    func checkReusePort() throws(NeonError) {
        guard reusePort else { return }
        guard redis != nil else {
            throw NeonError.usage("--reuse-port lets several processes share one port, and without --redis each would keep rooms of its own: people sent to different processes would never meet. Add --redis redis://HOST:PORT to make them nodes of one cluster, or drop --reuse-port")
        }
        guard port != 0 else {
            throw NeonError.usage("--reuse-port shares one port between nodes, but --port 0 picks a different free port for each; give the port with --port N")
        }
        guard ["", "*", "localhost"].contains(host) || IPAddress(host) != nil else {
            throw NeonError.usage("--reuse-port needs --host as an IP address (such as 127.0.0.1, 0.0.0.0 or ::), not \(host)")
        }
        guard node != nil else {
            throw NeonError.usage("--reuse-port runs several nodes on one HOST:PORT, the default node name, and a cluster refuses two live nodes of one name; give each its own --node NAME (e.g. --node \(Self.hostName())-1)")
        }
    }

    /// --unix-mode and --unix-group need --unix.
    func checkUnixFlags() throws(NeonError) {
        if unixSocket == nil, let flag = unixMode != 0o660 ? "--unix-mode" : unixGroup != nil ? "--unix-group" : nil {
            throw NeonError.usage("\(flag) sets the Unix socket's permissions; add --unix PATH to listen on one, or drop \(flag)")
        }
    }

    /// One address may not hold every room.
    func checkRoomsPerAddress() throws(NeonError) {
        if let held = maxRoomsPerAddress, held >= maxRooms, maxRooms > 1 {
            throw NeonError.usage("--max-rooms-per-ip \(held) would let one address fill all \(maxRooms) rooms (--max-rooms); give it a number below --max-rooms, or 0 for no limit")
        }
    }

    /// A document must fit in a message.
    func checkDocumentFitsMessage() throws(NeonError) {
        if limits.maxDocumentBytes > maxMessage {
            throw NeonError.usage("--max-document (\(limits.maxDocumentBytes) bytes) is larger than --max-message (\(maxMessage) bytes), so no document that large could arrive; raise --max-message")
        }
    }
}
