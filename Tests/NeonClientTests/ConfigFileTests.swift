import NeonClient
import NeonCore
import Testing

@Suite("the config file's place and its keys")
struct ConfigFileTests {
    @Test("the file is $XDG_CONFIG_HOME/neonsync/config.yaml, or under ~/.config when the variable is unset or relative; nowhere without HOME")
    func location() {
        let env = { (values: [String: String]) in { (name: String) in values[name] } }
        #expect(ConfigFile.location(env(["XDG_CONFIG_HOME": "/x", "HOME": "/home/ada"])) == "/x/neonsync/config.yaml")
        #expect(ConfigFile.location(env(["HOME": "/home/ada"])) == "/home/ada/.config/neonsync/config.yaml")
        #expect(ConfigFile.location(env(["XDG_CONFIG_HOME": "relative", "HOME": "/home/ada"])) == "/home/ada/.config/neonsync/config.yaml")
        #expect(ConfigFile.location(env([:])) == nil)
    }

    @Test("every key is a flag of the commands, and the file's settings keep their lines; comments and an empty file hold none")
    func keys() throws {
        #expect(ConfigFile.keys.allSatisfy { ConfigFile.option($0)?.flag == "--" + $0 })
        let file = try ConfigFile(path: "c.yaml", text: "# mine\n\ntheme: 'light'\ngraphics: none # no pictures\n")
        #expect(file.settings.map { [$0.key, $0.value, String($0.line)] } == [["theme", "light", "3"], ["graphics", "none", "4"]])
        #expect(try ConfigFile(path: "c.yaml", text: "# nothing yet\n").settings.isEmpty)
        #expect(try ConfigFile(path: "c.yaml", text: "").settings.isEmpty)
    }
}
