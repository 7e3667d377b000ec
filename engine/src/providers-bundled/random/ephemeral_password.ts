// hashicorp/random's `ephemeral "random_password"` (v3.7): the managed random_password's
// generation arguments without `keepers` and `number`, a sensitive `result` and `bcrypt_hash`,
// generated anew on every Open and never stored. Nothing to renew or close.
import bcrypt from "bcryptjs";
import { atLeast, type Attribute, type EphemeralResourceDefinition } from "../../sdk/index.js";
import { BoolType, NumberType, StringType } from "../../values/index.js";
import { createRandomString, paramsFrom } from "./provider.js";

const flag = (description: string): Attribute => ({ type: BoolType, optional: true, computed: true, description });
const min = (description: string): Attribute => ({ type: NumberType, optional: true, computed: true, description });

export const ephemeralRandomPassword: EphemeralResourceDefinition = {
  schema: {
    block: {
      description:
        "Generates an ephemeral password string using a cryptographic random number generator.\n\nThe primary use-case for generating an ephemeral random password is to be used in combination with a write-only attribute, in a managed resource, which will avoid Terraform storing the password string in the plan or state file.",
      attributes: {
        length: {
          type: NumberType,
          required: true,
          description: "The length of the string desired. The minimum value for length is 1 and, length must also be >= (`min_upper` + `min_lower` + `min_numeric` + `min_special`).",
          validators: [atLeast(1)],
        },
        special: flag("Include special characters in the result. These are `!@#$%&*()-_=+[]{}<>:?`. Default value is `true`."),
        upper: flag("Include uppercase alphabet characters in the result. Default value is `true`."),
        lower: flag("Include lowercase alphabet characters in the result. Default value is `true`."),
        numeric: flag("Include numeric characters in the result. Default value is `true`."),
        min_numeric: min("Minimum number of numeric characters in the result. Default value is `0`."),
        min_upper: min("Minimum number of uppercase alphabet characters in the result. Default value is `0`."),
        min_lower: min("Minimum number of lowercase alphabet characters in the result. Default value is `0`."),
        min_special: min("Minimum number of special characters in the result. Default value is `0`."),
        override_special: {
          type: StringType,
          optional: true,
          description:
            "Supply your own list of special characters to use for string generation.  This overrides the default character list in the special argument.  The `special` argument must still be set to true for any overwritten characters to be used in generation.",
        },
        result: { type: StringType, computed: true, sensitive: true, description: "The generated random string." },
        bcrypt_hash: { type: StringType, computed: true, sensitive: true, description: "A bcrypt hash of the generated random string. **NOTE**: If the generated random string is greater than 72 bytes in length, `bcrypt_hash` will contain a hash of the first 72 bytes." },
      },
    },
  },
  open: ({ attrs }) => {
    const params = paramsFrom(attrs);
    const result = createRandomString(params);
    return {
      result: {
        special: params.special,
        upper: params.upper,
        lower: params.lower,
        numeric: params.numeric,
        min_numeric: params.minNumeric,
        min_upper: params.minUpper,
        min_lower: params.minLower,
        min_special: params.minSpecial,
        result,
        bcrypt_hash: bcrypt.hashSync(result, 10),
      },
    };
  },
};
