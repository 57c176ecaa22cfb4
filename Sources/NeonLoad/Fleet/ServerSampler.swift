import Glibc

/// Reads a server process's CPU time and resident memory from /proc, so a
/// run can report server CPU seconds per million deliveries and RSS per
/// connection.
struct ServerSampler {
    let pid: Int32
    private let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))

    init(pid: Int32) {
        self.pid = pid
    }

    /// User plus system CPU seconds so far; nil when the process is gone.
    func cpuSeconds() -> Double? {
        guard let stat = Self.read("/proc/\(pid)/stat"), let close = stat.lastIndex(of: ")") else { return nil }
        // Fields after "(comm)": state is field 3; utime and stime are 14 and 15.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / ticksPerSecond
    }

    /// VmRSS in KiB; nil when the process is gone.
    func residentKiB() -> Int? {
        guard let status = Self.read("/proc/\(pid)/status") else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return Int(line.dropFirst(6).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "")
        }
        return nil
    }

    /// The CPU seconds this process (the load generator) used so far.
    static func ownCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
            + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    }

    /// The machine's one-minute load average: how many processes wanted a
    /// CPU, ours included; above the core count, figures include waiting.
    static func loadAverage() -> Double? {
        read("/proc/loadavg")?.split(separator: " ").first.flatMap { Double($0) }
    }

    private static func read(_ path: String) -> String? {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = Glibc.read(fd, &chunk, chunk.count)
            if count <= 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
