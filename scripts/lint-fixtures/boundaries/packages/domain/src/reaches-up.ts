// Breaks leaf-packages: domain importing another workspace package.
export { a } from "../../fake/src/cycle-a.js";
