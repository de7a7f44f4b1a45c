import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { clientGroup } from "./client-group.ts";

describe("clientGroup", () => {
  it.each([
    ["192.0.2.1", "192.0.2.1"],
    ["::ffff:192.0.2.1", "192.0.2.1"],
    ["::FFFF:192.0.2.1", "192.0.2.1"],
    ["2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"],
    ["2001:db8:1:2::1", "2001:db8:1:2::/64"],
    ["2001:0db8:0001:0002:ffff:ffff:ffff:ffff", "2001:db8:1:2::/64"],
    ["2001:db8::1", "2001:db8:0:0::/64"],
    ["fe80::1%eth0", "fe80:0:0:0::/64"],
    ["::1", "0:0:0:0::/64"],
  ])("counts %s as %s", (ip, group) => {
    expect(clientGroup(ip)).toBe(group);
  });

  it("puts every address of one /64 in one group, and the neighbouring /64 in another", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 0xffff }), { minLength: 4, maxLength: 4 }), (low) => {
        const address = `2001:db8:aa:bb:${low.map((group) => group.toString(16)).join(":")}`;
        expect(clientGroup(address)).toBe("2001:db8:aa:bb::/64");
        expect(clientGroup(address.replace(":bb:", ":bc:"))).toBe("2001:db8:aa:bc::/64");
      }),
    );
  });
});
